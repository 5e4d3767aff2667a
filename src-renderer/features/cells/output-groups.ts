import type { CellOutput } from '@contract';

// A finished cell's outputs as they are drawn: consecutive text (stdout and stderr, in the order
// written, and the app's notes about the run) is one block, every other output stands alone where it came.

export type StreamPart =
  | {
      /** 'note': the app's own words about the run (StreamOutput.appNote), never labelled as the program's stderr. */
      name: 'stdout' | 'stderr' | 'note';
      text: string;
    }
  | {
      /** Rows main left out here (StreamOutput.rowsLeftOut); `cut` counts such places in the cell from 0, for `cell.output-rows`. */
      name: 'cut';
      text: '';
      rows: number;
      cut: number;
    };

export type OutputGroup = { kind: 'streams'; key: number; parts: StreamPart[] } | { kind: 'rich'; key: number; output: CellOutput };

/** `cutsBefore`: the markers in the cell's outputs before these (a first attempt's), so each marker's `cut` counts in the whole cell. */
export function groupOutputs(outputs: readonly CellOutput[], cutsBefore = 0): OutputGroup[] {
  const groups: OutputGroup[] = [];
  let cuts = cutsBefore;
  outputs.forEach((output, i) => {
    if (output.output_type !== 'stream') {
      groups.push({ kind: 'rich', key: i, output });
      return;
    }
    const part: StreamPart | null = output.rowsLeftOut
      ? { name: 'cut', text: '', rows: output.rowsLeftOut, cut: cuts++ }
      : output.text
        ? { name: output.appNote ? 'note' : output.name, text: output.text }
        : null;
    if (!part) return;
    const last = groups.at(-1);
    const block = last?.kind === 'streams' ? last : null;
    const previous = block?.parts.at(-1);
    if (previous && previous.name !== 'cut' && previous.name === part.name) previous.text += part.text;
    else if (block) block.parts.push(part);
    else groups.push({ kind: 'streams', key: i, parts: [part] });
  });
  return groups;
}

/** How many markers of rows left out the outputs hold. */
export const cutsIn = (outputs: readonly CellOutput[]): number => outputs.filter((o) => o.output_type === 'stream' && o.rowsLeftOut).length;
