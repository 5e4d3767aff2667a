import Papa from 'papaparse';

// CSV and TSV text as rows of cells, for the preview's table. Parsing is papaparse's (quotes, escaped
// quotes, newlines inside quotes, delimiter guessing): a small parser of our own would get those wrong.

export interface TableData {
  header: string[];
  rows: string[][];
  /** Widest cell per column, in characters (from the first rows), to size the columns. */
  widths: number[];
  /** The reader's complaint about the first malformed row, if any. */
  problem: string | null;
}

const WIDTH_SAMPLE_ROWS = 500;
const MAX_COLUMN_CHARS = 48;

/** `cut`: the text is the head of a longer file, so its last line may be incomplete and is dropped. */
export function parseTable(text: string, path: string, cut: boolean): TableData {
  const tsv = /\.(tsv|tab)$/i.test(path);
  const parsed = Papa.parse<string[]>(text, { delimiter: tsv ? '\t' : '', skipEmptyLines: 'greedy' });
  const all = parsed.data;
  if (cut && all.length > 1) all.pop();
  const [header = [], ...rows] = all;
  const columns = Math.max(header.length, ...rows.slice(0, WIDTH_SAMPLE_ROWS).map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, c) => {
    let widest = (header[c] ?? '').length;
    for (const row of rows.slice(0, WIDTH_SAMPLE_ROWS)) widest = Math.max(widest, (row[c] ?? '').length);
    return Math.min(MAX_COLUMN_CHARS, Math.max(4, widest));
  });
  const first = parsed.errors[0];
  const problem = first ? `row ${(first.row ?? 0) + 1}: ${first.message}` : null;
  return { header, rows, widths, problem };
}
