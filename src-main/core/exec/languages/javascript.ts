import { join } from 'node:path';
import type { LanguageDefinition, Runtime } from './language';

/**
 * The Node that runs JavaScript cells: this process's own executable. Under Electron that binary
 * is Electron, which behaves as plain Node only with ELECTRON_RUN_AS_NODE=1 — so the packaged app
 * needs no separate Node install.
 */
export function nodeRuntime(): Runtime {
  const electron = process.versions.electron !== undefined;
  return {
    command: process.execPath,
    version: process.versions.node,
    ...(electron ? { env: { ELECTRON_RUN_AS_NODE: '1' } } : {}),
  };
}

export const javascript: LanguageDefinition = {
  name: 'javascript',
  label: 'JavaScript',
  aliases: ['js', 'node', 'nodejs', 'javascript', 'mjs'],
  kind: 'runner',
  runtimeLabel: 'node',
  async detect() {
    return nodeRuntime();
  },
  runner: {
    script: join('runners', 'node', 'oi-runner.mjs'),
    args: (script) => [script],
  },
};
