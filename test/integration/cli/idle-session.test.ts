import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '@contract';
import { lastToolResult, shellCall, useCliFixtures } from './support/oi-terminal-run';
import { cliEnv } from '../../support/cli-process';
import { Processes } from '../../../src-main/core/exec';

// Interactive `oi` ends a conversation's sessions left unused for exec.sessionIdleMs like the app
// (docs/exec.md#idle-sessions), and the next run prints that the state is gone. The idle time is set
// short in the settings file; the shell's pid is watched from outside, never slept on.

const fixtures = useCliFixtures();

describe('oi with idle sessions', () => {
  it('ends the shell of a conversation left unused, and its next run prints that the state is gone', async () => {
    const { llm, dir, flags } = await fixtures.setUp();
    // Written before oi starts. The sandbox chosen off, so the pid the shell prints is the one this process sees.
    const settings = { ...defaultSettings, sandbox: { ...defaultSettings.sandbox, enabled: false, chosen: true } };
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ ...settings, exec: { ...settings.exec, sessionIdleMs: 300 } }));
    const oi = fixtures.terminal([...flags, '--workspace', path.join(dir, 'ws'), '--auto-run'], cliEnv(dir));
    llm.enqueue(shellCall('c1', 'x=41; echo "pid=$$"'), { kind: 'text', text: 'Set.' }, shellCall('c2', 'echo "x=${x:-unset}"'), {
      kind: 'text',
      text: 'Gone.',
    });
    await oi.expect('> ');
    oi.line('set x');
    const pid = Number(/pid=(\d+)/.exec(await oi.expect(/pid=\d+/))?.[1]);
    await oi.expect('Set.');
    await expect.poll(() => Processes.isAlive(pid), { timeout: 30_000, interval: 100 }).toBe(false);

    oi.line('print x');
    await oi.expect('Gone.');
    expect(oi.output).toMatch(
      /the previous shell session had ended \(it was unused for 0\.3 s, so the app ended it to free memory\); this run started a new one, so earlier state is gone/,
    );
    expect(oi.output).toContain('x=unset');
    expect(lastToolResult(llm)).toMatch(/^Note: the previous shell session had ended/);
  });
});
