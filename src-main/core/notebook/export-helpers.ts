import type { ConversationItem } from '@contract';
import { APP_KEY } from './app-metadata';
import { notebookLanguage } from './languages';
import { splitLines } from './multiline';
import type { CodeCellV4 } from './nbformat-schema';

type HelpersCell = Omit<CodeCellV4, 'id'>;

// The app's Python sessions predefine `files` (workspace file helpers, oi_files.py) and IPython-like
// `HTML`, `Markdown` and `Image`; a plain Jupyter kernel has none of them, so a cell that used them
// would fail there with NameError. Export puts one cell first that defines those the notebook's
// Python cells use: IPython's display classes, and `files` from the runner's own module, bound to the
// kernel's folder (where the notebook and the workspace's files are, as export's relative paths assume).

const DISPLAY_CLASSES = ['HTML', 'Markdown', 'Image'] as const;
const FILES_USE = /(^|[^\w.])files\s*\.\s*(read|write|exists|list|delete|search|path)\s*\(/m;

/** The helpers the notebook's Python cells use, or null when they use none. */
export function helpersUsed(items: readonly ConversationItem[]): { display: string[]; files: boolean } | null {
  // The app's own cells only: a cell from Jupyter ran there without them (and imports what it uses).
  const code = items
    .flatMap((item) =>
      item.kind === 'cell' && item.jupyter?.cellType === undefined && notebookLanguage(item.language, item.shell) === 'python'
        ? [item.code]
        : [],
    )
    .join('\n');
  const display = DISPLAY_CLASSES.filter((name) => new RegExp(`(^|[^\\w.])${name}\\s*\\(`, 'm').test(code));
  const files = FILES_USE.test(code);
  return display.length > 0 || files ? { display, files } : null;
}

/**
 * The first cell of the export, defining what `helpersUsed` found; `filesSource` is the runner's
 * oi_files.py (without it, `files` cannot be defined and the cell says so instead).
 */
export function helpersCell(used: { display: string[]; files: boolean }, filesSource: string | null): HelpersCell {
  const lines = [
    '# Open Interpreter predefines these in its Python sessions; here they are defined so that the',
    '# notebook also runs under a plain Jupyter kernel.',
  ];
  if (used.display.length > 0) lines.push(`from IPython.display import ${used.display.join(', ')}`);
  if (used.files && filesSource !== null) lines.push('', filesSource.trimEnd(), '', "files = Files('.')");
  else if (used.files)
    lines.push('raise NameError("this notebook uses Open Interpreter\'s `files` helper, which this export could not include")');
  return {
    cell_type: 'code',
    execution_count: null,
    metadata: { [APP_KEY]: { role: 'helpers' }, jupyter: { source_hidden: true } },
    outputs: [],
    source: splitLines(lines.join('\n')),
  };
}
