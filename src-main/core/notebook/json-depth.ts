import { NotebookImportError } from './notebook-import-error';
import { where } from './schema-issues';

// JSON nested thousands of levels deep parses fine, but every recursive step after parsing does not:
// JSON.stringify (saving the conversation), structured cloning (sending it to the window) and
// rendering all overflow the stack near 5,000 levels. Jupyter's own reader (Python's json) stops
// near 1,000. So import refuses, naming the cell and field, anything deeper than a bound no real
// notebook comes near (plotly figures and widget states nest about 10 levels).

export const MAX_JSON_DEPTH = 512;

/** Throws a `too-deep` NotebookImportError when `value` nests more than `limit` levels. Iterative. */
export function checkJsonDepth(value: unknown, limit = MAX_JSON_DEPTH): void {
  // Each entry: a container, its depth, and the entry of its parent with the key that leads here.
  interface Frame {
    value: object;
    depth: number;
    parent: Frame | null;
    key: string | number;
  }
  if (typeof value !== 'object' || value === null) return;
  const stack: Frame[] = [{ value, depth: 1, parent: null, key: '' }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.depth > limit) throw tooDeep(pathOf(frame), value, limit);
    // Plain loops: a big notebook holds hundreds of thousands of lines, and only containers are kept.
    if (Array.isArray(frame.value)) {
      const list = frame.value as unknown[];
      for (let i = 0; i < list.length; i++) {
        const child = list[i];
        if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: frame.depth + 1, parent: frame, key: i });
      }
    } else {
      const record = frame.value as Record<string, unknown>;
      for (const key in record) {
        const child = record[key];
        if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
      }
    }
  }

  function pathOf(frame: Frame): Array<string | number> {
    const path: Array<string | number> = [];
    for (let f: Frame | null = frame; f?.parent; f = f.parent) path.push(f.key);
    return path.reverse();
  }
}

function tooDeep(path: Array<string | number>, root: unknown, limit: number): NotebookImportError {
  // Name the field where the deep value starts (an output's MIME entry, a metadata key), not the
  // 513th bracket inside it.
  const cut = path[0] === 'cells' ? fieldEnd(path) : Math.min(path.length, 2);
  return new NotebookImportError(
    'too-deep',
    `The notebook nests JSON more than ${limit} levels deep in ${where(path.slice(0, cut), root)}; ` +
      `the app reads at most ${limit} levels (Jupyter itself stops near 1,000).`,
  );
}

/** How much of a path inside a cell names a field: cells[i].outputs[j].data[mime], cells[i].metadata[key]… */
function fieldEnd(path: Array<string | number>): number {
  if (path[2] === 'outputs') return Math.min(path.length, 6);
  return Math.min(path.length, 4);
}
