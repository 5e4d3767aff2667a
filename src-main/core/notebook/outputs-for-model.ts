import type { CellOutput } from '@contract';

// What the model is told about a run that happened outside the app (an imported notebook): the
// outputs as text, rich data named rather than inlined, trimmed to head + tail like live runs.

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

export function outputsForModel(outputs: readonly CellOutput[], maxChars: number): string {
  const parts = outputs.map(describeOutput).filter((part) => part !== '');
  const text = parts.join(parts.every((p) => p.endsWith('\n')) ? '' : '\n');
  return trimMiddle(text === '' ? '(no output)' : text, maxChars);
}

function describeOutput(output: CellOutput): string {
  switch (output.output_type) {
    case 'stream':
      return output.text.replace(ANSI, '');
    case 'error':
      return `${output.traceback.join('\n').replace(ANSI, '') || `${output.ename}: ${output.evalue}`}\n`;
    case 'display_data':
    case 'execute_result': {
      const plain = output.data['text/plain'];
      const rich = Object.keys(output.data).filter((mime) => mime !== 'text/plain');
      const named = rich.length > 0 ? `[${rich.join(', ')} output]` : '';
      if (typeof plain === 'string') return named ? `${plain}\n${named}\n` : `${plain}\n`;
      return named ? `${named}\n` : '';
    }
  }
}

function trimMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.6);
  const tail = maxChars - head;
  const elided = text.length - head - tail;
  return `${text.slice(0, head)}\n… ${elided} characters of output elided …\n${text.slice(text.length - tail)}`;
}
