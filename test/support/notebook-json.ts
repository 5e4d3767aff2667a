/**
 * An nbformat 4.5 Python notebook as the app reads it (import, preview, re-run): each cell gets an id
 * (`c<index>`) and empty metadata unless it names its own.
 */
export function notebookJson(cells: Array<Record<string, unknown>>): string {
  return JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' }, language_info: { name: 'python' } },
    cells: cells.map((c, i) => ({ id: `c${i}`, metadata: {}, ...c })),
  });
}
