// Copied into the packaged app's out/main/ (extracted from app.asar) and run there under Node, so that
// every import resolves exactly as the packaged main's would: from out/main, up through app.asar's
// node_modules. Prints one JSON line: what loaded and what failed (with the error's code and message).
import { readdirSync } from 'node:fs';
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const here = import.meta.dirname;
const standIn = process.argv[2];
const ENTRIES = new Set(['index.js', 'serve.js', 'cli.js', 'checkpoint-journal.js']);

// `electron` is the one module Electron provides itself. The main imports it; the packages that
// require() it (electron-updater) do so only when called, which loading them does not do.
const hooks = `export async function resolve(specifier, context, next) {
  return specifier === 'electron' ? { url: ${JSON.stringify(pathToFileURL(standIn).href)}, shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);

const chunks = readdirSync(here).filter((f) => f.endsWith('.js'));
/** The packages the chunks import (main-imports.ts reads them from the chunks' syntax). */
const bare = JSON.parse(process.argv[3]);
const loaded = [];
const failures = [];
const attempt = async (name, load) => {
  try {
    await load();
    loaded.push(name);
  } catch (error) {
    failures.push({ name, code: error?.code ?? null, message: String(error?.message ?? error).split('\n')[0] });
  }
};
// The desktop entry with its whole static graph; the other entries start a server, a CLI or a worker
// when evaluated, so their chunks are loaded instead (every chunk but the entries), with what they import.
await attempt('index.js', () => import('./index.js'));
for (const file of chunks.filter((f) => !ENTRIES.has(f))) await attempt(file, () => import(`./${file}`));
// What the chunks load on demand (import(), createRequire): every package, from here.
for (const spec of bare) await attempt(spec, () => import(spec));

process.stdout.write(`${JSON.stringify({ loaded, failures })}\n`);
process.exit(0);
