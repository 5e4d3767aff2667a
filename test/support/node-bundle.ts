import path from 'node:path';
import { build } from 'esbuild';

const REPO = path.resolve(import.meta.dirname, '..', '..');

/**
 * Bundles `entry` (TypeScript of this repository) and what it imports into one ES module at `outfile`,
 * for a test's child process to run with plain `node`. esbuild is the compiler tsx uses, so the same
 * code runs; a child that loads one file costs ~0.4 CPU-seconds against ~1.7 for tsx's loader compiling
 * and resolving the app's module graph in it (CONTRIBUTING.md, the cost section).
 */
export async function bundleForNode(entry: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    outfile,
    tsconfig: path.join(REPO, 'tsconfig.node.json'),
    logLevel: 'error',
    // Bundled CommonJS packages call require(), which an ES module lacks.
    banner: { js: "import { createRequire as oiCreateRequire } from 'node:module'; const require = oiCreateRequire(import.meta.url);" },
  });
  return outfile;
}
