import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Imports nothing beyond Node's own modules: `oi --version` answers from here as fast as Node starts.

/**
 * The repository or the installed package (app.asar in the packaged desktop app): this file runs as
 * src-main/core/*.ts under tsx and vitest, and bundled into out/main/*.js, both two folders below it.
 */
export function packageRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
}

/**
 * The version every entry point reports (`oi --version`, app.info in the desktop app and browser mode,
 * notebooks' metadata, `oi mcp`'s server info): package.json's, read the same way whoever starts.
 */
export function appVersion(root: string = packageRoot()): string {
  try {
    return (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
