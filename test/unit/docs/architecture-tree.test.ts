import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/architecture.md must stay true to the code. Its tree block names folders and files, one per
// line, indented two spaces per level, with the description after two or more spaces; lines indented
// as far as the description column continue the description above them.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DOC = path.join(ROOT, 'docs/architecture.md');
/** Folders whose every sub-folder, at any depth, the tree must name. */
const COVERED = ['src-main', 'src-preload', 'src-renderer', 'resources'];
const DESCRIPTION_COLUMN = 20;

interface Named {
  path: string;
  folder: boolean;
  line: number;
}

function treeBlock(text: string): { lines: string[]; firstLine: number } {
  const lines = text.split('\n');
  const start = lines.findIndex((line, i) => line === '```' && lines[i + 1]?.startsWith('src-'));
  if (start < 0) throw new Error('docs/architecture.md has no tree block (a ``` block starting with a src- folder)');
  const end = lines.findIndex((line, i) => i > start && line === '```');
  return { lines: lines.slice(start + 1, end), firstLine: start + 2 };
}

function namedInTree(text: string): Named[] {
  const { lines, firstLine } = treeBlock(text);
  const parents: string[] = [];
  const named: Named[] = [];
  lines.forEach((line, i) => {
    const indent = line.length - line.trimStart().length;
    if (line.trim() === '' || indent >= DESCRIPTION_COLUMN) return;
    if (indent % 2 !== 0) throw new Error(`docs/architecture.md:${firstLine + i}: indented by ${indent} spaces, not a multiple of two`);
    const depth = indent / 2;
    if (depth > parents.length) throw new Error(`docs/architecture.md:${firstLine + i}: indented deeper than the folder above it`);
    parents.length = depth;
    const names = line.trimStart().split(/ {2,}/)[0]!.split(', ');
    for (const name of names) {
      const folder = name.endsWith('/');
      named.push({ path: [...parents, name.replace(/\/$/, '')].join('/'), folder, line: firstLine + i });
      if (folder) parents.push(name.replace(/\/$/, ''));
    }
  });
  return named;
}

/** Repository paths written out in the text; patterns (requests/<feature>.ts, *.bench.ts) name no single path. */
function referencedPaths(text: string): string[] {
  return [...text.matchAll(/(?<![\w./-])((?:src-main|src-renderer|src-preload|test|bench|resources|docs)\/[\w./<>*-]*[\w/])/g)]
    .map((m) => m[1]!)
    .filter((p) => !/[<>*]/.test(p));
}

function subfolders(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [`${dir}/${entry.name}`, ...subfolders(`${dir}/${entry.name}`)]);
}

describe('docs/architecture.md', () => {
  const text = readFileSync(DOC, 'utf8');
  const named = namedInTree(text);

  it('reads the tree: folders nested under their parents, files beside them', () => {
    expect(named).toContainEqual(expect.objectContaining({ path: 'src-main/core/exec/engine', folder: true }));
    expect(named).toContainEqual(expect.objectContaining({ path: 'src-renderer/features/common', folder: true }));
    expect(named).toContainEqual(expect.objectContaining({ path: 'src-renderer/startup.ts', folder: false }));
  });

  it('names only folders and files that exist', () => {
    const missing = named
      .filter(({ path: p, folder }) => !existsSync(path.join(ROOT, p)) || statSync(path.join(ROOT, p)).isDirectory() !== folder)
      .map(({ path: p, folder, line }) => `line ${line}: ${p}${folder ? '/' : ''}`);
    expect(missing).toEqual([]);
  });

  it(`names every folder under ${COVERED.join(', ')}`, () => {
    const names = new Set(named.filter((n) => n.folder).map((n) => n.path));
    const unnamed = COVERED.flatMap(subfolders).filter((dir) => !names.has(dir));
    expect(unnamed).toEqual([]);
  });

  it('points only at paths inside the repository that exist', () => {
    expect(referencedPaths(text).length).toBeGreaterThan(10);
    expect(referencedPaths(text).filter((p) => !existsSync(path.join(ROOT, p)))).toEqual([]);
    expect(text).not.toMatch(/\]\(\.\.\/|`\.\.\//);
  });
});

describe("docs/architecture.md's layer order", () => {
  it("gives core's folder order as eslint.config.js's CORE_ORDER", () => {
    const config = readFileSync(path.join(ROOT, 'eslint.config.js'), 'utf8');
    const list = /const CORE_ORDER = \[([^\]]*)\]/.exec(config)?.[1] ?? '';
    const order = [...list.matchAll(/'([\w-]+)'/g)].map((m) => m[1]);
    const written = /first: ([\w\s→-]+);/.exec(readFileSync(DOC, 'utf8').replace(/\n\s*/g, ' '))?.[1] ?? '';
    expect(order.length).toBeGreaterThan(15);
    expect(written.split('→').map((name) => name.trim())).toEqual(order);
  });
});

describe('CONTRIBUTING.md', () => {
  it('points only at paths inside the repository that exist', () => {
    const text = readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
    expect(referencedPaths(text).length).toBeGreaterThan(10);
    expect(referencedPaths(text).filter((p) => !existsSync(path.join(ROOT, p)))).toEqual([]);
  });
});
