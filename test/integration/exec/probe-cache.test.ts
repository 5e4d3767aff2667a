import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localProbing } from '../../../src-main/core/exec/languages/probing';

// The runtime probes' answers are kept for the life of the process (probing.ts). A bare program name
// is another program under another PATH: an answer given under one PATH must not be reused under the
// next (a conversation whose PATH names a virtual environment, or a test that changes PATH).

describe('the runtime probes’ cache', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'oi-probe-cache-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const folderSaying = (name: string): string => {
    const dir = path.join(root, name);
    mkdirSync(dir);
    const program = path.join(dir, 'oi-probe-cache-tool');
    writeFileSync(program, `#!/bin/sh\necho ${name}\n`);
    chmodSync(program, 0o755);
    return dir;
  };

  it('asks again under another PATH, and keeps each PATH’s answer', async () => {
    const first = folderSaying('first');
    const second = folderSaying('second');
    const ask = (dir: string) => localProbing({ PATH: `${dir}:/usr/bin:/bin` }).ask('oi-probe-cache-tool', ['--version']);
    expect((await ask(first)).stdout.trim()).toBe('first');
    expect((await ask(second)).stdout.trim()).toBe('second');
    // Kept: the first PATH's program changed on disk, and the answer did not (no second spawn).
    writeFileSync(path.join(first, 'oi-probe-cache-tool'), '#!/bin/sh\necho changed\n');
    expect((await ask(first)).stdout.trim()).toBe('first');
  });
});
