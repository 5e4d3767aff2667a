import { KernelMessage } from '@jupyterlab/services';
import type { CellOutput } from '@contract';

// A kernel's IOPub messages as the engine's two kinds of output: terminal text (streams, shown in the
// cell's terminal like a local session's) and Jupyter-shaped rich outputs, which already have the
// shapes cells and notebooks use, so they pass through unchanged.

export type KernelOutput = { kind: 'text'; text: string } | { kind: 'rich'; output: CellOutput } | null;

export function kernelOutput(msg: KernelMessage.IIOPubMessage): KernelOutput {
  if (KernelMessage.isStreamMsg(msg)) return { kind: 'text', text: toTerminal(msg.content.text) };
  if (KernelMessage.isExecuteResultMsg(msg)) {
    return {
      kind: 'rich',
      output: {
        output_type: 'execute_result',
        execution_count: msg.content.execution_count,
        data: { ...msg.content.data },
        metadata: { ...msg.content.metadata },
      },
    };
  }
  // An update to an earlier display is shown as a new display: cells keep outputs in order, not by id.
  if (KernelMessage.isDisplayDataMsg(msg) || KernelMessage.isUpdateDisplayDataMsg(msg)) {
    return { kind: 'rich', output: { output_type: 'display_data', data: { ...msg.content.data }, metadata: { ...msg.content.metadata } } };
  }
  if (KernelMessage.isErrorMsg(msg)) {
    return {
      kind: 'rich',
      output: { output_type: 'error', ename: msg.content.ename, evalue: msg.content.evalue, traceback: [...msg.content.traceback] },
    };
  }
  return null;
}

/** A terminal wants CR LF; kernels send bare LF (a local pty adds the CR itself). */
function toTerminal(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}
