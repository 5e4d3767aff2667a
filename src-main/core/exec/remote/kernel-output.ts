import { KernelMessage } from '@jupyterlab/services';
import type { CellOutput, DisplayUpdate } from '@contract';

// A kernel's IOPub messages as the engine's two kinds of output: terminal text (streams, shown in the
// cell's terminal like a local session's) and Jupyter-shaped rich outputs, which already have the
// shapes cells and notebooks use, so they pass through unchanged.

export type KernelOutput =
  { kind: 'text'; text: string } | { kind: 'rich'; output: CellOutput } | { kind: 'update'; update: DisplayUpdate } | null;

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
  // The display's id travels in `transient`: a later update_display_data replaces every display with
  // it (docs/exec.md#display-updates); an update without an id changes nothing, as in Jupyter.
  const displayId = displayIdOf(msg.content);
  if (KernelMessage.isUpdateDisplayDataMsg(msg)) {
    return displayId
      ? { kind: 'update', update: { displayId, data: { ...msg.content.data }, metadata: { ...msg.content.metadata } } }
      : null;
  }
  if (KernelMessage.isDisplayDataMsg(msg)) {
    const output: CellOutput = { output_type: 'display_data', data: { ...msg.content.data }, metadata: { ...msg.content.metadata } };
    return { kind: 'rich', output: displayId ? { ...output, displayId } : output };
  }
  if (KernelMessage.isErrorMsg(msg)) {
    return {
      kind: 'rich',
      output: { output_type: 'error', ename: msg.content.ename, evalue: msg.content.evalue, traceback: [...msg.content.traceback] },
    };
  }
  return null;
}

function displayIdOf(content: object): string | null {
  const transient = (content as { transient?: { display_id?: unknown } }).transient;
  const id = transient?.display_id;
  return typeof id === 'string' && id.length > 0 && id.length <= 256 ? id : null;
}

/** A terminal wants CR LF; kernels send bare LF (a local pty adds the CR itself). */
function toTerminal(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}
