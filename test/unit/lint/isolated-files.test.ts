import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../../support/isolated-files';
import { unrestoredChanges } from './support/process-wide-changes';

// Test files share test processes (vitest.config.ts, isolate: false). A file that changes process.env,
// the working folder, process listeners, globals or modules and does not put them back leaves the next
// file in its process a different world — the isolation bugs that failed CI runs. Such a file must keep
// a process of its own: it is named in ISOLATED (test/support/isolated-files.ts).

const ROOT = path.resolve(import.meta.dirname, '../../..');

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(relative);
    return relative.endsWith('.test.ts') ? [relative] : [];
  });
}

describe('the isolated test files', () => {
  it('include every test file that changes the test process without putting it back', () => {
    const files = testFiles('test');
    expect(files.length).toBeGreaterThan(100);
    const offenders = files
      .filter((file) => !ISOLATED.includes(file))
      .flatMap((file) =>
        unrestoredChanges(readFileSync(path.join(ROOT, file), 'utf8'), file).map((c) => `${file}:${c.line} changes ${c.what}`),
      );
    expect(offenders).toEqual([]);
  });

  it('name files that exist', () => {
    const files = new Set(testFiles('test'));
    expect(ISOLATED.filter((file) => !files.has(file))).toEqual([]);
  });

  it('are told apart by the check: a change left in place is found, the same change put back is not', () => {
    const leftInPlace = [
      "it('a', () => { process.env.TZ = 'Europe/Paris'; });",
      "it('b', () => { process.chdir('/tmp'); });",
      "it('c', () => { process.on('warning', () => {}); });",
      "vi.mock('node:fs');",
      "it('d', () => { delete process.env['HOME']; globalThis.fetch = undefined as never; });",
    ].join('\n');
    expect(unrestoredChanges(leftInPlace).map((c) => c.what)).toEqual([
      'env TZ',
      'cwd',
      'listener warning',
      'module mock',
      'env HOME',
      'global fetch',
    ]);

    const putBack = [
      "it('a', () => { const tz = process.env.TZ; process.env.TZ = 'Europe/Paris'; try { run(); } finally { process.env.TZ = tz; } });",
      "it('b', () => { const cwd = process.cwd(); process.chdir('/tmp'); try { run(); } finally { process.chdir(cwd); } });",
      "beforeAll(() => { process.on('warning', onWarning); });",
      "afterAll(() => { process.off('warning', onWarning); delete process.env['HOME']; });",
      "beforeEach(() => { process.env['HOME'] = '/elsewhere'; });",
      // Code in a string runs in a runner's process, not the test's.
      'const code = \'process.chdir("sub")\';',
    ].join('\n');
    expect(unrestoredChanges(putBack)).toEqual([]);
  });
});
