import { type ConversationItem, defaultSettings, type NotebookOrigin } from '@contract';
import { APP_KEY, NotebookMeta } from './app-metadata';
import type { ImportedFile } from './import-attachments';
import { cellsToItems } from './import-cells';
import { locateJsonSyntaxError } from './json-syntax-error';
import { canonicalLanguage } from './languages';
import { checkJsonDepth } from './json-depth';
import { joinLines } from './multiline';
import { NotebookImportError } from './notebook-import-error';
import { notebookText } from './notebook-text';
import { convertV3 } from './nbformat-v3';
import { isCellOfType, NotebookV4NewerReader, NotebookV4Reader, type NotebookMetadataV4, type NotebookV4Read } from './nbformat-schema';
import { describeIssues } from './schema-issues';

export interface ImportOptions {
  /** Larger files are refused before they are parsed (the app's setting, 200 MB by default). */
  maxBytes: number;
  /** The file's name: the title when the notebook has none. */
  fileName?: string;
  /** Time given to items the notebook holds no time for. Defaults to the current time. */
  now?: string;
  /** How many characters of a run's output the model sees (head + tail). */
  modelOutputChars?: number;
}

export interface NotebookImport {
  conversationItems: ConversationItem[];
  title: string;
  /** The notebook's main language, in the app's names ('python', 'shell', …). */
  language: string;
  /** Things imported differently from how the notebook has them, one sentence each. */
  warnings: string[];
  /** Attachments to write into the new conversation's workspace before its items are saved. */
  files: ImportedFile[];
  /** What export needs to write the notebook back as it came in (the conversation's `notebook`). */
  notebook: NotebookOrigin;
}

const NEWEST_MINOR = 5;

/**
 * A notebook as the start of a new conversation. All or nothing: it returns everything or throws a
 * NotebookImportError naming the problem, and it changes nothing outside itself.
 */
export function importNotebook(input: string | Uint8Array, opts: ImportOptions): NotebookImport {
  const warnings: string[] = [];
  const text = notebookText(input, opts.maxBytes, warnings);
  let nb = asNotebookObject(parseJson(text));
  // Before anything recursive (the v3 conversion, saving, sending to the window) meets it.
  checkJsonDepth(nb);

  const converted = nb.nbformat === 3;
  if (converted) {
    nb = convertV3(nb, warnings);
    warnings.unshift('This is an nbformat 3 notebook (from before 2015); it was converted to version 4 to import it.');
  } else if (nb.nbformat !== 4) {
    throw new NotebookImportError(
      'unsupported-version',
      `This notebook is nbformat ${JSON.stringify(nb.nbformat)}; the app reads versions 4.0–4.5 and converts version 3.`,
    );
  }

  const minor = typeof nb.nbformat_minor === 'number' ? nb.nbformat_minor : 0;
  const newer = minor > NEWEST_MINOR;
  let parsed = NotebookV4Reader.safeParse(nb);
  let dropped = false;
  if (!parsed.success && newer) {
    // A later minor may add fields (nbformat relaxes the same rule): read them as unknown, and say so.
    const lenient = NotebookV4NewerReader.safeParse(nb);
    if (lenient.success) [parsed, dropped] = [lenient, true];
  }
  if (newer) {
    const left = dropped ? `, and fields 4.${NEWEST_MINOR} does not know were left out` : '';
    warnings.push(`The notebook is nbformat 4.${minor}, newer than 4.${NEWEST_MINOR}; it was read by the 4.${NEWEST_MINOR} rules${left}.`);
  }
  if (!parsed.success) {
    const problems = describeIssues(parsed.error.issues, nb, 20);
    const shown = problems.slice(0, 3).join('; ');
    const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
    throw new NotebookImportError('schema', `The notebook breaks the nbformat 4 rules: ${shown}${more}.`, problems);
  }

  const notebook: NotebookV4Read = parsed.data;
  const language = notebookLanguage(notebook.metadata);
  const files: ImportedFile[] = [];
  const conversationItems = cellsToItems(notebook.cells, {
    kernelLanguage: language,
    now: opts.now ?? new Date().toISOString(),
    modelOutputChars: opts.modelOutputChars ?? defaultSettings.exec.modelOutputChars,
    warnings,
    files,
  });
  const title = titleOf(notebook, opts.fileName);
  return { conversationItems, title, language, warnings, files, notebook: originOf(notebook, title, converted) };
}

/** The notebook-level things export writes back: minor version, metadata (all but the app's key), title. */
function originOf(notebook: NotebookV4Read, title: string, converted: boolean): NotebookOrigin {
  const { [APP_KEY]: app, ...metadata } = notebook.metadata;
  const fromApp = NotebookMeta.safeParse(app).success;
  return {
    // A converted version 3 notebook is written as the current 4.x, as nbformat's own upgrade does.
    nbformatMinor: converted ? NEWEST_MINOR : Math.min(notebook.nbformat_minor, NEWEST_MINOR),
    // A foreign `oi` key that is not the app's stays with the notebook.
    metadata: fromApp || app === undefined ? metadata : { ...metadata, [APP_KEY]: app },
    title,
    fromApp,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const where = locateJsonSyntaxError(text);
    const message = where
      ? `${where.message} at line ${where.line}, column ${where.column}`
      : error instanceof Error
        ? error.message
        : String(error);
    throw new NotebookImportError('invalid-json', `The file is not valid JSON: ${message}.`);
  }
}

function asNotebookObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const found = value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
    throw new NotebookImportError('not-a-notebook', `The file is JSON but not a notebook: expected an object, found ${found}.`);
  }
  const nb = value as Record<string, unknown>;
  if (!('nbformat' in nb)) {
    const hint = 'cells' in nb ? ' It has "cells" but no "nbformat" version field.' : '';
    throw new NotebookImportError('not-a-notebook', `The file is JSON but not a Jupyter notebook: it has no "nbformat" field.${hint}`);
  }
  return nb;
}

/** The kernel's language in the app's names; Python when the notebook does not say. */
function notebookLanguage(metadata: NotebookMetadataV4): string {
  const fromInfo = metadata.language_info?.name;
  const fromSpec = metadata.kernelspec?.language;
  const name = typeof fromInfo === 'string' && fromInfo ? fromInfo : typeof fromSpec === 'string' && fromSpec ? fromSpec : 'python';
  return canonicalLanguage(name);
}

function titleOf(nb: NotebookV4Read, fileName: string | undefined): string {
  if (typeof nb.metadata.title === 'string' && nb.metadata.title.trim()) return nb.metadata.title.trim();
  for (const cell of nb.cells) {
    if (!isCellOfType(cell, 'markdown')) continue;
    const heading = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(joinLines(cell.source));
    if (heading?.[1]) return heading[1];
  }
  if (fileName) return fileName.replace(/^.*[\\/]/, '').replace(/\.ipynb$/i, '') || 'Imported notebook';
  return 'Imported notebook';
}
