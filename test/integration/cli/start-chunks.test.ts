import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../support/built-output';

// What `oi`, `oi mcp` and `oi acp` load before they can answer (docs/cli.md#start-up), read from the
// build (`npm run build`): the chunks each command's module imports statically, transitively. `yaml`
// (front matter of skills and saved commands) loads on the first such file, not with the app's modules.

const MAIN = path.join(REPO, 'out', 'main');
const files = readdirSync(MAIN).filter((f) => f.endsWith('.js'));
const text = (file: string): string => readFileSync(path.join(MAIN, file), 'utf8');

/** Every chunk `entry` loads before its own code runs, and the packages they import. */
function staticClosure(entry: string): { chunks: Set<string>; packages: Set<string> } {
  const chunks = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (chunks.has(file)) return;
    chunks.add(file);
    for (const m of text(file).matchAll(/^import\s(?:[^'"]*?\sfrom\s)?["']([^"']+)["'];?$/gms)) {
      const spec = m[1] ?? '';
      if (spec.startsWith('./')) visit(spec.slice(2));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { chunks, packages };
}

const chunkOf = (prefix: string): string => {
  const found = files.filter((f) => f.startsWith(prefix) && /^[\w-]+-[\w-]{8}\.js$/.test(f) && text(f).length > 1000);
  expect(found, prefix).toHaveLength(1);
  return found[0] ?? '';
};

describe('the CLI’s start chunks', () => {
  const startApp = files.filter((f) => /\bfunction startApp\(/.test(text(f)));

  it('load yaml only on demand', () => {
    expect(startApp).toHaveLength(1);
    for (const command of ['cli-run-', 'mcp-command-', 'acp-command-']) {
      const { chunks, packages } = staticClosure(chunkOf(command));
      expect(
        [...packages].filter((p) => p === 'yaml' || p.startsWith('yaml/')),
        command,
      ).toEqual([]);
      // The walk reaches the app's own chunk from each command, so what it did not find is not there.
      expect(chunks.has(startApp[0] ?? ''), command).toBe(true);
    }
    // And it sees a package where one is imported statically: the MCP SDK's server in its own chunk.
    const sdk = files.filter((f) => staticClosure(f).packages.has('@modelcontextprotocol/sdk/server/mcp.js'));
    expect(sdk.length).toBeGreaterThan(0);
  });
});
