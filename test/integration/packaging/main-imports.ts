import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { parseAst } from 'rolldown/parseAst';

/** What the built main's chunks import, read from their syntax (not their text: bundled comments quote imports). */
export interface MainImports {
  /** Packages and package subpaths: import declarations, import(), require() and createRequire'd requires. */
  bare: string[];
  /** Chunk files named by a relative import, resolved to absolute paths. */
  relative: string[];
}

type Node = { type?: string; [key: string]: unknown };

function literal(node: unknown): string | null {
  const n = node as Node | null;
  return n?.type === 'Literal' && typeof n.value === 'string' ? n.value : null;
}

/** Every module specifier in `code`, in any import form the bundle uses. */
function specifiersOf(code: string, file: string): string[] {
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    if (
      n.type === 'ImportDeclaration' ||
      n.type === 'ExportAllDeclaration' ||
      n.type === 'ExportNamedDeclaration' ||
      n.type === 'ImportExpression'
    ) {
      const spec = literal(n.source);
      if (spec) found.push(spec);
    }
    // require('x'), and the createRequire'd requireHere('x') the exec engine loads node-pty with.
    if (n.type === 'CallExpression') {
      const callee = n.callee as Node;
      const args = n.arguments as unknown[];
      const spec = literal(args[0]);
      if (callee.type === 'Identifier' && /^require/.test(String(callee.name)) && spec) found.push(spec);
    }
    for (const value of Object.values(n)) if (value && typeof value === 'object') visit(value);
  };
  visit(parseAst(code, { sourceType: 'module' }, file));
  return found;
}

export function mainImports(mainDir: string): MainImports {
  const bare = new Set<string>();
  const relative = new Set<string>();
  for (const file of readdirSync(mainDir).filter((f) => f.endsWith('.js'))) {
    for (const spec of specifiersOf(readFileSync(path.join(mainDir, file), 'utf8'), file)) {
      if (spec.startsWith('.')) relative.add(path.resolve(mainDir, spec));
      else if (!isBuiltin(spec) && spec !== 'electron') bare.add(spec);
    }
  }
  return { bare: [...bare].sort(), relative: [...relative].sort() };
}
