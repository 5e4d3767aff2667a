import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localProbing, setProbeTimeout } from '../../../src-main/core/exec/languages/probing';

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

  /**
   * A program `tool` alone in the folder `name`, which does `firstTime` (shell) the first time it is
   * asked and answers "answered" every time after; and how to ask it for its version.
   */
  const changingOnceAsked = (name: string, tool: string, firstTime: string) => {
    const dir = path.join(root, name);
    mkdirSync(dir);
    const marker = path.join(dir, 'asked-once');
    const program = path.join(dir, tool);
    writeFileSync(program, `#!/bin/sh\nif [ -e '${marker}' ]; then echo answered; exit 0; fi\n: > '${marker}'\n${firstTime}\n`);
    chmodSync(program, 0o755);
    return () => localProbing({ PATH: `${dir}:/usr/bin:/bin` }).ask(tool, ['--version']);
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

  // A program that outlived the probe's time (a pyenv shim on a loaded machine) said nothing about
  // itself: kept, it would make Python "not installed" until the app restarts.
  it('does not keep a probe that timed out: the next ask runs the program again and gets its answer', async () => {
    // Slow the first time only (stands for a machine busy for a moment); it answers at once after.
    const ask = changingOnceAsked('slow', 'oi-probe-slow-tool', 'exec sleep 30');
    setProbeTimeout(300);
    try {
      const first = await ask();
      expect(first).toMatchObject({ ok: false, timedOut: true });
      expect(first.stderr).toContain('did not answer within 300 ms');
      setProbeTimeout(); // the second ask may take its time on a loaded machine: it must not time out
      expect(await ask()).toMatchObject({ ok: true, stdout: 'answered\n' });
    } finally {
      setProbeTimeout();
    }
  });

  it('keeps a failure that was an answer (the program ran and said no)', async () => {
    const ask = changingOnceAsked('failing', 'oi-probe-failing-tool', 'exit 3');
    expect(await ask()).toMatchObject({ ok: false });
    expect((await ask()).ok).toBe(false); // kept: no second spawn for a program that answered
  });
});
