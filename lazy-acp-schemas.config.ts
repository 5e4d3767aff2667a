import type { Expression, Node } from '@oxc-project/types';
import { parseAst, type Plugin } from 'vite';

// The ACP SDK's generated schema module (`@agentclientprotocol/sdk/dist/<version>/schema/zod.gen.js`)
// builds a zod schema for every type of the protocol, both sides, when it is evaluated: some hundreds of
// zod instances, 50-57 CPU-ms of `oi acp`'s start, of which an agent checks only the few requests a
// client sends it (docs/acp.md#speed). This build step leaves the module's text as it is and wraps each
// exported schema's expression in zod's own `z.lazy(() => …)`: the schema is built the first time
// something parses with it (zod caches it on the lazy's definition), and parses exactly as before.
//
// A lazy schema has the methods of every zod type (`.and`, `.optional`, `.nullish`, `.catch`,
// `.parse`…) but not those of one kind (`.shape`, `.extend`, `.options`…). The module refers to its
// own exports only through the former today; should a later SDK use another, or put other code at the
// top level, the build stops here rather than ship a schema that differs.

const SCHEMA_MODULE = /[\\/]@agentclientprotocol[\\/]sdk[\\/]dist[\\/].*[\\/]zod\.gen\.js$/;
/** Methods of zod's base type, which a lazy schema has too. */
const ANY_SCHEMA_METHODS = new Set([
  'and',
  'or',
  'optional',
  'nullable',
  'nullish',
  'catch',
  'array',
  'parse',
  'safeParse',
  'describe',
  'meta',
]);

interface Wrap {
  start: number;
  end: number;
}

/** The module's text with each exported schema built on first use; throws on a module of another shape. */
export function lazySchemaModule(code: string, file: string): string {
  const program = parseAst(code, { sourceType: 'module' }, file);
  const zodNamespace = program.body.find(
    (s) => s.type === 'ImportDeclaration' && s.source.value === 'zod/v4' && s.specifiers[0]?.type === 'ImportNamespaceSpecifier',
  );
  if (zodNamespace?.type !== 'ImportDeclaration') throw new Error(`${file}: no \`import * as z from "zod/v4"\``);
  const z = zodNamespace.specifiers[0]!.local.name;
  const wraps: Wrap[] = [];
  const names = new Set<string>();
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') continue;
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : null;
    if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const')
      throw new Error(`${file}: a top-level statement other than \`export const zName = …\` (${statement.type})`);
    for (const d of declaration.declarations) {
      if (d.id.type !== 'Identifier' || !d.init) throw new Error(`${file}: an export that is not \`zName = …\``);
      names.add(d.id.name);
      wraps.push({ start: d.init.start, end: d.init.end });
    }
  }
  if (!wraps.length) throw new Error(`${file}: no exported schemas`);
  checkUses(program.body, names, file);
  let out = code;
  for (const { start, end } of wraps.sort((a, b) => b.start - a.start))
    out = `${out.slice(0, start)}/* @__PURE__ */ ${z}.lazy(() => (${out.slice(start, end)}))${out.slice(end)}`;
  return out;
}

/** Throws where one of the module's schemas is used through a method a lazy schema lacks. */
function checkUses(nodes: readonly Node[], names: Set<string>, file: string): void {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const n = node as Expression;
    if (n.type === 'MemberExpression' && n.object.type === 'Identifier' && names.has(n.object.name)) {
      const method = n.property.type === 'Identifier' && !n.computed ? n.property.name : '(computed)';
      if (!ANY_SCHEMA_METHODS.has(method)) throw new Error(`${file}: ${n.object.name}.${method} needs the schema built eagerly`);
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'parent') visit(value);
  };
  visit(nodes);
}

/** The build step: the ACP SDK's schemas built on first use (docs/acp.md#speed). */
export const lazyAcpSchemas: Plugin = {
  name: 'oi-lazy-acp-schemas',
  apply: 'build',
  transform(code, id) {
    if (!SCHEMA_MODULE.test(id)) return null;
    return { code: lazySchemaModule(code, id), map: null };
  },
};
