// The notebook package's public surface: everything the app, the CLI and the bench use.

export { exportNotebook, serializeNotebook, mainLanguage, type ExportMeta, type ExportOptions } from './ipynb-export';
export { importNotebook, type ImportOptions, type NotebookImport } from './ipynb-import';
export type { ImportedFile } from './import-attachments';
export { NotebookImportError, type NotebookProblem } from './notebook-import-error';
export { NotebookV4_0, NotebookV4_5, NotebookV4Reader, strictNotebookSchema, type NotebookV4 } from './nbformat-schema';
export { describeIssues } from './schema-issues';
export { rerunCells, rerunnableCells, applyRunResult, type RerunContext, type RerunOutcome, type RerunProgress } from './rerun';
