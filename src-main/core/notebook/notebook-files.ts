import { readFileSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage, type Conversation } from '@contract';
import { writeFileAtomic } from '../fs/atomic-write';
import { exportNotebook, serializeNotebook, type ExportMeta } from './ipynb-export';
import { importNotebook, type ImportOptions, type NotebookImport } from './ipynb-import';
import { strictNotebookSchema } from './nbformat-schema';
import { NotebookImportError } from './notebook-import-error';
import { formatBytes } from './notebook-text';
import { describeIssues } from './schema-issues';

// Notebooks as files: what the handlers, the CLI (`%export file.ipynb`, `oi --notebook file.ipynb`)
// and the bench share. The mapping itself stays pure in ipynb-export.ts / ipynb-import.ts.

/** The conversation as .ipynb text, held to the app's nbformat schema (4.5, or an imported notebook's minor) before anyone sees it. */
export function notebookTextOf(
  conv: Conversation,
  meta: ExportMeta,
  /** Its sub-agents' conversations (loadSubagents), exported under their calls. */
  subagents?: ReadonlyMap<string, Conversation>,
): { text: string; cells: number } {
  const nb = exportNotebook(conv, meta, {
    ...(subagents ? { subagents } : {}),
    readAttachment: readAttachmentBytes,
    pythonFilesSource: () => runnerHelperSource(meta.resourcesDir),
  });
  const checked = strictNotebookSchema(nb.nbformat_minor).safeParse(nb);
  // Export builds what the schema describes; a failure here is a bug in the app, not in the user's data.
  if (!checked.success) {
    throw new Error(
      `the exported notebook of "${conv.title}" breaks nbformat 4.${nb.nbformat_minor}: ${describeIssues(checked.error.issues, nb, 3).join('; ')}`,
    );
  }
  return { text: serializeNotebook(nb), cells: nb.cells.length };
}

/** The Python runner's `files` module, which an export defines for a plain kernel (export-helpers.ts). */
function runnerHelperSource(resourcesDir: string | undefined): string | null {
  if (!resourcesDir) return null;
  try {
    return readFileSync(path.join(resourcesDir, 'runners', 'python', 'oi_files.py'), 'utf8');
  } catch {
    return null;
  }
}

/** Writes the conversation as a notebook at `filePath` (replacing it whole, never half-written). */
export async function exportToFile(
  conv: Conversation,
  filePath: string,
  meta: ExportMeta,
  subagents?: ReadonlyMap<string, Conversation>,
): Promise<{ path: string; bytes: number; cells: number }> {
  const { text, cells } = notebookTextOf(conv, meta, subagents);
  const target = path.resolve(filePath);
  await writeFileAtomic(target, text);
  return { path: target, bytes: Buffer.byteLength(text, 'utf8'), cells };
}

/**
 * The bytes of a notebook file, refused before reading when it is over `maxBytes` so a huge file
 * never lands in memory. Errors name the file.
 */
export async function readNotebookFile(filePath: string, maxBytes: number): Promise<Uint8Array> {
  const name = path.basename(filePath);
  let size: number;
  try {
    const st = await stat(filePath);
    if (!st.isFile()) throw new Error(`"${name}" is not a file`);
    size = st.size;
  } catch (err) {
    throw new Error(`cannot read the notebook ${filePath}: ${fileErrorMessage(err)}`, { cause: err });
  }
  if (size > maxBytes) {
    throw new NotebookImportError(
      'too-large',
      `The notebook "${name}" is ${formatBytes(size)}, over the import limit of ${formatBytes(maxBytes)}. Raise the limit in settings to import it.`,
    );
  }
  const handle = await open(filePath, 'r');
  try {
    // Read at most one byte past the limit: a file that grew since stat() is still caught by import.
    const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) break;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/** Reads and imports a notebook file; all or nothing, like importNotebook. */
export async function importFromFile(filePath: string, opts: Omit<ImportOptions, 'fileName'>): Promise<NotebookImport> {
  const bytes = await readNotebookFile(filePath, opts.maxBytes);
  return importNotebook(bytes, { ...opts, fileName: path.basename(filePath) });
}

/** A file name for the exported notebook: the title, made safe for every OS. */
export function notebookFileName(title: string): string {
  const base = title
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[. ]+|[. ]+$/g, '')
    .slice(0, 120);
  return `${base || 'conversation'}.ipynb`;
}

/** Attachment bytes for export; a file that is gone is named in the notebook rather than failing it. */
function readAttachmentBytes(absolutePath: string): Uint8Array | null {
  try {
    return readFileSync(absolutePath);
  } catch {
    return null;
  }
}

/** A file error as a person says it ("no such file"), else the error's own message. */
function fileErrorMessage(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  return errorMessage(err);
}
