import { NotebookImportError } from './notebook-import-error';

// nbformat 3 (IPython 1–3, before 2015) differs from 4 mostly in layout: cells sit inside
// "worksheets", code is in "input", outputs keep MIME data under short keys ("png", "html") at their
// top level, and "pyout"/"pyerr" are today's execute_result/error. Converting that layout is enough
// for everything that still opens such files; the result is then held to the 4.x schema like any other.

const SHORT_MIME: Record<string, string> = {
  text: 'text/plain',
  html: 'text/html',
  markdown: 'text/markdown',
  latex: 'text/latex',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpeg: 'image/jpeg',
  pdf: 'application/pdf',
  javascript: 'application/javascript',
  json: 'application/json',
};

const OUTPUT_TYPES: Record<string, string> = { pyout: 'execute_result', pyerr: 'error' };
const NOT_DATA = new Set(['output_type', 'metadata', 'prompt_number']);

type Json = Record<string, unknown>;

/** A 4.0-shaped notebook (not yet validated) from a version 3 one. */
export function convertV3(nb: Json, warnings: string[]): Json {
  const worksheets = nb.worksheets;
  if (!Array.isArray(worksheets)) {
    throw v3Error('it has no "worksheets" list, where version 3 keeps its cells');
  }
  if (worksheets.length > 1) warnings.push(`The notebook has ${worksheets.length} worksheets; their cells were joined in order.`);
  const cells: unknown[] = [];
  worksheets.forEach((sheet, s) => {
    if (!isRecord(sheet) || !Array.isArray(sheet.cells)) throw v3Error(`worksheet ${s} has no "cells" list`);
    for (const cell of sheet.cells) {
      if (!isRecord(cell)) throw v3Error(`cell ${cells.length} is not an object`);
      cells.push(convertCell(cell, cells.length, warnings));
    }
  });
  const metadata: Json = isRecord(nb.metadata) ? { ...nb.metadata } : {};
  // Version 3 kept the notebook's name in metadata.name; version 4 calls it title.
  if (typeof metadata.name === 'string') {
    if (metadata.name !== '' && metadata.title === undefined) metadata.title = metadata.name;
    delete metadata.name;
  }
  delete metadata.signature;
  // Version 3 notebooks were IPython notebooks: Python, whatever the metadata says.
  if (!isRecord(metadata.language_info)) metadata.language_info = { name: 'python' };
  metadata.orig_nbformat = 3;
  return { nbformat: 4, nbformat_minor: 0, metadata, cells };
}

function convertCell(cell: Json, index: number, warnings: string[]): Json {
  const metadata = isRecord(cell.metadata) ? { ...cell.metadata } : {};
  switch (cell.cell_type) {
    case 'code': {
      if (typeof cell.collapsed === 'boolean') metadata.collapsed = cell.collapsed;
      const outputs = Array.isArray(cell.outputs) ? cell.outputs : [];
      return {
        cell_type: 'code',
        metadata,
        source: cell.input ?? '',
        execution_count: typeof cell.prompt_number === 'number' ? cell.prompt_number : null,
        outputs: outputs.map((output, o) => convertOutput(output, index, o, warnings)),
      };
    }
    case 'heading': {
      const level = typeof cell.level === 'number' ? Math.min(Math.max(Math.trunc(cell.level), 1), 6) : 1;
      const text = joined(cell.source).replace(/\s*\n\s*/g, ' ');
      return { cell_type: 'markdown', metadata, source: `${'#'.repeat(level)} ${text}` };
    }
    case 'markdown':
    case 'raw':
      return { cell_type: cell.cell_type, metadata, source: cell.source ?? '' };
    default:
      // Left as-is: the 4.x rules then name the cell and its type.
      return { ...cell, metadata };
  }
}

function convertOutput(output: unknown, cell: number, index: number, warnings: string[]): unknown {
  if (!isRecord(output)) return output;
  const type = typeof output.output_type === 'string' ? (OUTPUT_TYPES[output.output_type] ?? output.output_type) : output.output_type;
  if (type === 'stream') {
    return { output_type: 'stream', name: output.stream ?? 'stdout', text: output.text ?? '' };
  }
  if (type === 'error') {
    return { output_type: 'error', ename: output.ename, evalue: output.evalue, traceback: output.traceback ?? [] };
  }
  if (type !== 'execute_result' && type !== 'display_data') return { ...output, output_type: type };
  const data: Json = {};
  for (const [key, value] of Object.entries(output)) {
    if (NOT_DATA.has(key)) continue;
    const mime = key.includes('/') ? key : SHORT_MIME[key];
    if (!mime) {
      warnings.push(`Cell ${cell}, output ${index}: the version 3 field "${key}" has no version 4 equivalent and was dropped.`);
      continue;
    }
    // Version 3 stored JSON output as JSON text (often split into lines); version 4 stores the value.
    data[mime] = mime === 'application/json' && (typeof value === 'string' || Array.isArray(value)) ? parseOr(joined(value)) : value;
  }
  const metadata = isRecord(output.metadata) ? output.metadata : {};
  return type === 'execute_result'
    ? { output_type: type, execution_count: typeof output.prompt_number === 'number' ? output.prompt_number : null, data, metadata }
    : { output_type: type, data, metadata };
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function joined(value: unknown): string {
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? value.filter((v) => typeof v === 'string').join('') : '';
}

function v3Error(what: string): NotebookImportError {
  return new NotebookImportError('schema', `This nbformat 3 notebook cannot be converted: ${what}.`);
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
