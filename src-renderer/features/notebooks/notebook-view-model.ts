import { plainMessage } from '../../state/plain-error';
// A forgiving reading of .ipynb JSON for the read-only preview. Import (in main) is strict and says
// exactly what is wrong; the preview shows whatever can be shown from any 4.x or 3 notebook, even a
// damaged one, and never trusts a field's type.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export type PreviewOutput =
  | { kind: 'stream'; name: string; text: string }
  | { kind: 'error'; ename: string; evalue: string; traceback: string }
  | { kind: 'rich'; prompt: number | null; data: JsonObject };

export type PreviewCell =
  | { kind: 'markdown'; source: string; attachments: JsonObject }
  | { kind: 'code'; source: string; language: string; count: number | null; outputs: PreviewOutput[] }
  | { kind: 'raw'; source: string };

export interface PreviewNotebook {
  version: string;
  kernel: string;
  language: string;
  cells: PreviewCell[];
}

export const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A multiline string as nbformat stores it: a string or a list of lines. */
export const joined = (v: Json | undefined): string =>
  Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')).join('') : typeof v === 'string' ? v : '';

// A leading cell magic runs the cell in another language (what export writes for shell, node…).
const MAGIC_LANGUAGE: Record<string, string> = {
  bash: 'bash',
  sh: 'bash',
  script: 'bash',
  ruby: 'ruby',
  perl: 'perl',
  html: 'html',
  javascript: 'javascript',
  js: 'javascript',
  latex: 'latex',
};
const INTERPRETERS: Record<string, string> = {
  node: 'javascript',
  Rscript: 'r',
  pwsh: 'powershell',
  osascript: 'applescript',
  python: 'python',
  python3: 'python',
  bash: 'bash',
  sh: 'bash',
  zsh: 'bash',
  ruby: 'ruby',
  perl: 'perl',
};

function cellLanguage(source: string, kernelLanguage: string): string {
  const magic = /^%%(\w+)(?:[ \t]+(\S+))?/.exec(source);
  if (!magic) return kernelLanguage;
  const [, name = '', arg = ''] = magic;
  if (name === 'script') return INTERPRETERS[arg.split('/').pop() ?? ''] ?? kernelLanguage;
  return MAGIC_LANGUAGE[name] ?? kernelLanguage;
}

// Tracebacks carry ANSI colours for terminals; the preview shows plain text.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

function output(o: JsonObject): PreviewOutput {
  const type = o.output_type;
  if (type === 'stream') return { kind: 'stream', name: typeof o.name === 'string' ? o.name : 'stdout', text: joined(o.text) };
  if (type === 'error' || type === 'pyerr') {
    const traceback = Array.isArray(o.traceback) ? o.traceback.map((l) => (typeof l === 'string' ? l : '')).join('\n') : '';
    return { kind: 'error', ename: joined(o.ename), evalue: joined(o.evalue), traceback: traceback.replace(ANSI, '') };
  }
  if (isObject(o.data)) return { kind: 'rich', prompt: typeof o.execution_count === 'number' ? o.execution_count : null, data: o.data };
  // nbformat 3 keeps MIME data at the top level under short names.
  const v3: JsonObject = {};
  const names: Record<string, string> = {
    png: 'image/png',
    jpeg: 'image/jpeg',
    svg: 'image/svg+xml',
    html: 'text/html',
    latex: 'text/latex',
    text: 'text/plain',
    json: 'application/json',
  };
  for (const [short, mime] of Object.entries(names)) if (o[short] !== undefined) v3[mime] = o[short] ?? null;
  return { kind: 'rich', prompt: typeof o.prompt_number === 'number' ? o.prompt_number : null, data: v3 };
}

function cell(c: JsonObject, kernelLanguage: string): PreviewCell {
  const source = joined(c.source ?? c.input);
  if (c.cell_type === 'markdown') return { kind: 'markdown', source, attachments: isObject(c.attachments) ? c.attachments : {} };
  if (c.cell_type === 'heading')
    return { kind: 'markdown', source: `${'#'.repeat(typeof c.level === 'number' ? c.level : 1)} ${source}`, attachments: {} };
  if (c.cell_type !== 'code') return { kind: 'raw', source };
  const count = typeof c.execution_count === 'number' ? c.execution_count : typeof c.prompt_number === 'number' ? c.prompt_number : null;
  const outputs = Array.isArray(c.outputs) ? c.outputs.filter(isObject).map(output) : [];
  return { kind: 'code', source, language: cellLanguage(source, kernelLanguage), count, outputs };
}

/** The notebook's cells for display, or why the text cannot be shown at all. */
export function readNotebook(text: string): { notebook: PreviewNotebook } | { error: string } {
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch (err) {
    return { error: `This notebook is not valid JSON: ${plainMessage(err)}` };
  }
  if (!isObject(json)) return { error: 'This file is JSON but not a notebook: it is not an object.' };
  const meta = isObject(json.metadata) ? json.metadata : {};
  const kernelspec = isObject(meta.kernelspec) ? meta.kernelspec : {};
  const info = isObject(meta.language_info) ? meta.language_info : {};
  const language = (joined(info.name) || joined(kernelspec.language) || 'python').toLowerCase();
  const worksheets = Array.isArray(json.worksheets) ? json.worksheets.filter(isObject) : [];
  const rawCells = Array.isArray(json.cells) ? json.cells : worksheets.flatMap((w) => (Array.isArray(w.cells) ? w.cells : []));
  const major = typeof json.nbformat === 'number' ? json.nbformat : null;
  if (major === null) return { error: 'This file is JSON but not a Jupyter notebook: it has no "nbformat" field.' };
  const minor = typeof json.nbformat_minor === 'number' ? `.${json.nbformat_minor}` : '';
  return {
    notebook: {
      version: `${major}${minor}`,
      kernel: joined(kernelspec.display_name) || joined(kernelspec.name),
      language,
      cells: rawCells.filter(isObject).map((c) => cell(c, language)),
    },
  };
}

/** Markdown with `attachment:name` images pointing at the cell's embedded data. */
export function withAttachmentUrls(source: string, attachments: JsonObject): string {
  let text = source;
  for (const [name, bundle] of Object.entries(attachments)) {
    if (!isObject(bundle)) continue;
    const entry = Object.entries(bundle).find(([mime]) => mime.startsWith('image/'));
    if (!entry) continue;
    const [mime, value] = entry;
    const data = joined(value);
    const url =
      mime === 'image/svg+xml'
        ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(data)}`
        : `data:${mime};base64,${data.replace(/\s+/g, '')}`;
    for (const ref of new Set([name, encodeURI(name), encodeURIComponent(name)])) text = text.split(`attachment:${ref}`).join(url);
  }
  return text;
}
