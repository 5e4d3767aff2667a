import type { CellOutput } from '@contract';

// A finished cell's outputs as they are drawn: consecutive text (stdout and stderr, in the order
// written, and the app's notes about the run) is one block, every other output stands alone where it came.

export interface StreamPart {
  /** 'note': the app's own words about the run (StreamOutput.appNote), never labelled as the program's stderr. */
  name: 'stdout' | 'stderr' | 'note';
  text: string;
}

export type OutputGroup = { kind: 'streams'; key: number; parts: StreamPart[] } | { kind: 'rich'; key: number; output: CellOutput };

export function groupOutputs(outputs: readonly CellOutput[]): OutputGroup[] {
  const groups: OutputGroup[] = [];
  outputs.forEach((output, i) => {
    if (output.output_type !== 'stream') {
      groups.push({ kind: 'rich', key: i, output });
      return;
    }
    if (!output.text) return;
    const name = output.appNote ? 'note' : output.name;
    const last = groups.at(-1);
    const block = last?.kind === 'streams' ? last : null;
    const previous = block?.parts.at(-1);
    if (previous?.name === name) previous.text += output.text;
    else if (block) block.parts.push({ name, text: output.text });
    else groups.push({ kind: 'streams', key: i, parts: [{ name, text: output.text }] });
  });
  return groups;
}
