export type NotebookProblem = 'too-large' | 'binary' | 'invalid-json' | 'not-a-notebook' | 'unsupported-version' | 'schema' | 'too-deep';

/** Why a file could not be imported; nothing of it was imported. `details` lists every problem found. */
export class NotebookImportError extends Error {
  override readonly name = 'NotebookImportError';

  constructor(
    readonly problem: NotebookProblem,
    message: string,
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}
