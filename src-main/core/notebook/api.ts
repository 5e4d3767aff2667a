// The notebook format in one import: export, import, the nbformat schemas and re-runs, for the notebook
// handlers and the notebook bench. Not the only way in: the app, the handlers, the CLI and oi mcp's
// sessions also take the file helpers (notebook-files.ts), the imported-conversation writer, re-runs
// and live re-runs from their own modules, and the tests reach the parts they test.

export { exportNotebook, serializeNotebook, mainLanguage, type ExportMeta, type ExportOptions } from './ipynb-export';
export { importNotebook, type ImportOptions, type NotebookImport } from './ipynb-import';
export type { ImportedFile } from './import-attachments';
export { NotebookImportError, type NotebookProblem } from './notebook-import-error';
export { NotebookV4_0, NotebookV4_5, NotebookV4Reader, strictNotebookSchema, type NotebookV4 } from './nbformat-schema';
export { describeIssues } from './schema-issues';
export { rerunCells, rerunnableCells, applyRunResult, type RerunContext, type RerunOutcome, type RerunProgress } from './rerun';
