// `files`: small file helpers whose relative paths mean "in the conversation's workspace".
// Synchronous on purpose: a cell can call files.read('a.txt') without await, and workspace-sized
// files are read in milliseconds. Node's own errors come through (ENOENT, ENOTDIR, EACCES…); they
// carry the absolute path in their message and `.path`.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';

// Folders that recursive listing and search step over: tool caches and installed packages dwarf
// a workspace's own files. Pass such a folder as the path to look inside it anyway.
export const SKIP_DIRS = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.tox',
  '.ipynb_checkpoints',
]);
const SEARCH_MAX_FILE = 20 * 1024 * 1024;
const SEARCH_MAX_LINE = 500;

const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A RegExp for a glob: * and ? stay within a path segment, ** crosses segments, [abc], {a,b}. */
export function globRegex(pattern) {
  return new RegExp(`^${globBody(pattern)}$`, 's');
}

function globBody(pattern) {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (pattern.startsWith('**/', i)) {
      out += '(?:.*/)?';
      i += 2;
    } else if (pattern.startsWith('**', i)) {
      out += '.*';
      i += 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[' && pattern.indexOf(']', i + 2) !== -1) {
      const end = pattern.indexOf(']', i + 2);
      let body = pattern.slice(i + 1, end);
      const negate = body[0] === '!' || body[0] === '^';
      if (negate) body = body.slice(1);
      out += `[${negate ? '^' : ''}${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else if (c === '{' && pattern.indexOf('}', i) !== -1) {
      const end = pattern.indexOf('}', i);
      out += `(?:${pattern
        .slice(i + 1, end)
        .split(',')
        .map(globBody)
        .join('|')})`;
      i = end;
    } else out += escapeRegex(c);
  }
  return out;
}

/** [relative path with '/' separators, isDirectory] for everything under root, minus SKIP_DIRS. */
function* walk(root, prefix = '') {
  const entries = fs
    .readdirSync(path.join(root, prefix), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const dirs = entries.filter((e) => e.isDirectory() && !SKIP_DIRS.has(e.name));
  for (const d of dirs) yield [prefix + d.name, true];
  for (const e of entries) if (!e.isDirectory()) yield [prefix + e.name, false];
  for (const d of dirs) {
    try {
      yield* walk(root, `${prefix}${d.name}/`);
    } catch {
      // unreadable folders are skipped, as grep -r does
    }
  }
}

function* textLines(full) {
  let data;
  try {
    if (fs.statSync(full).size > SEARCH_MAX_FILE) return;
    data = fs.readFileSync(full);
  } catch {
    return; // unreadable or vanished
  }
  if (data.subarray(0, 8192).includes(0)) return; // binary
  const lines = data.toString('utf8').split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) yield [i + 1, lines[i]];
}

const isPlainData = (v) => Array.isArray(v) || (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype);

export class Files {
  constructor(workspace) {
    this.workspace = path.resolve(workspace);
  }

  /** The absolute path a helper would use for `p`. */
  path(p = '.') {
    const expanded = p === '~' || p.startsWith('~/') ? os.homedir() + p.slice(1) : p;
    return path.resolve(this.workspace, expanded);
  }

  /** Text (UTF-8 by default), or a Buffer with { binary: true }. */
  read(p, { binary = false, encoding = 'utf-8' } = {}) {
    const full = this.path(p);
    const data = fs.readFileSync(full);
    if (binary) return data;
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(data);
    } catch {
      throw new Error(`${full} is not ${encoding} text; use files.read(path, { binary: true }) for its bytes`);
    }
  }

  /** Writes text, bytes, or an object/array as JSON; creates folders; returns the absolute path. */
  write(p, data, { append = false } = {}) {
    const full = this.path(p);
    if (isPlainData(data)) data = `${JSON.stringify(data, null, 2)}\n`;
    if (typeof data !== 'string' && !ArrayBuffer.isView(data)) {
      throw new TypeError(`files.write() takes a string, bytes, an object or an array, not ${typeof data}`);
    }
    fs.mkdirSync(path.dirname(full), { recursive: true });
    (append ? fs.appendFileSync : fs.writeFileSync)(full, data);
    return full;
  }

  exists(p) {
    try {
      fs.lstatSync(this.path(p));
      return true;
    } catch {
      return false;
    }
  }

  /** Sorted names (folders end with '/'); a pattern with '/' or '**' searches below too. */
  list(p = '.', pattern = null) {
    const root = this.path(p);
    if (!pattern || (!pattern.includes('/') && !pattern.includes('**'))) {
      const match = pattern ? globRegex(pattern) : null;
      return fs
        .readdirSync(root, { withFileTypes: true })
        .filter((e) => !match || match.test(e.name))
        .map((e) => e.name + (e.isDirectory() ? '/' : ''))
        .sort();
    }
    if (!fs.statSync(root).isDirectory()) fs.readdirSync(root); // throws ENOTDIR naming the path
    const match = globRegex(pattern);
    const found = [];
    for (const [relative, isDir] of walk(root)) if (match.test(relative)) found.push(relative + (isDir ? '/' : ''));
    return found.sort();
  }

  /** Deletes a file, or a folder (with { recursive: true } when it is not empty). */
  delete(p, { recursive = false } = {}) {
    const full = this.path(p);
    const stat = fs.lstatSync(full);
    if (!stat.isDirectory()) return void fs.unlinkSync(full);
    if (recursive) return void fs.rmSync(full, { recursive: true });
    if (fs.readdirSync(full).length > 0) {
      const error = new Error(`ENOTEMPTY: directory not empty (pass { recursive: true } to delete it with its contents), '${full}'`);
      Object.assign(error, { code: 'ENOTEMPTY', path: full });
      throw error;
    }
    fs.rmdirSync(full);
  }

  /** Lines containing `text`: [{ path, line, text }], paths relative to the workspace. */
  search(text, p = '.', { pattern = null, ignoreCase = false, maxResults = 1000 } = {}) {
    if (!text) throw new Error('files.search() needs some text to look for');
    const root = this.path(p);
    const needle = ignoreCase ? text.toLowerCase() : text;
    const match = pattern ? globRegex(pattern) : null;
    const candidates = fs.statSync(root).isDirectory()
      ? [...walk(root)].filter(([, isDir]) => !isDir).map(([rel]) => [path.join(root, rel), rel])
      : [[root, path.basename(root)]];
    const results = [];
    for (const [full, relative] of candidates) {
      if (match && !match.test(relative) && !match.test(path.basename(relative))) continue;
      for (const [line, content] of textLines(full)) {
        if (!(ignoreCase ? content.toLowerCase() : content).includes(needle)) continue;
        results.push({ path: this.shown(full), line, text: content.slice(0, SEARCH_MAX_LINE) });
        if (results.length >= maxResults) return results;
      }
    }
    return results;
  }

  shown(full) {
    const relative = path.relative(this.workspace, full);
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return full;
    return relative.split(path.sep).join('/');
  }

  [inspect.custom]() {
    return `<files: read, write, list, delete, search, exists; relative paths are in ${this.workspace}>`;
  }
}
