import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { defaultSettings } from '@contract';
import { cliEnv, runOi } from '../../support/cli-process';
import { shellCall, useCliFixtures } from './support/oi-terminal-run';
import { sendAndAnswer } from '../../support/cli-run';

// The terminal's bell and title (docs/cli.md#notifications) in a real pseudo-terminal, against the
// scripted model: rung when code waits for approval and when the turn ends, as Settings' notifyOn says,
// and never into a pipe.

const fixtures = useCliFixtures();
const BELL = '\x07';
const titled = (text: string) => `\x1b]0;oi: ${text}\x07`;
const PUSH_TITLE = '\x1b[22;0t';
const POP_TITLE = '\x1b[23;0t';

describe('oi calls the person back', () => {
  it('rings and titles the terminal when code waits for approval and when the turn ends; gives the title back at exit', async () => {
    const { llm, dir, flags } = await fixtures.setUp();
    const oi = fixtures.terminal([...flags, '--workspace', path.join(dir, 'ws')], cliEnv(dir));
    llm.enqueue(shellCall('c1', 'echo ran-it'), { kind: 'text', text: 'All done.' });
    await oi.expect('> ');
    expect(oi.raw).not.toContain(BELL);
    oi.line('run something');
    await oi.expect('Run this code?');
    await vi.waitFor(() => expect(oi.raw).toContain(`${PUSH_TITLE}${titled('Code waits for your approval.')}${BELL}`));
    oi.line('y');
    await oi.expect('All done.');
    await vi.waitFor(() => expect(oi.raw).toContain(`${titled('The turn finished.')}${BELL}`));
    // The person's own title was kept once, before the first change.
    expect(oi.raw.split(PUSH_TITLE)).toHaveLength(2);
    oi.line('exit');
    expect(await oi.exited).toBe(0);
    expect(oi.raw).toContain(POP_TITLE);
  });

  it('stays quiet for the moments Settings leave out', async () => {
    const { llm, dir, flags } = await fixtures.setUp();
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ ...defaultSettings, notifyOn: ['turn-failed'] }));
    const oi = fixtures.terminal([...flags, '--workspace', path.join(dir, 'ws')], cliEnv(dir));
    llm.enqueue(shellCall('c1', 'echo ran-it'), { kind: 'text', text: 'All done.' });
    await sendAndAnswer(oi, 'run something', 'y');
    await oi.expect('All done.');
    // The prompt is drawn again after turn.end was handled (the bell is written as the event arrives).
    await oi.expect('> ');
    expect(oi.raw).not.toContain(BELL);
    expect(oi.raw).not.toContain('\x1b]0;');
  });

  it('writes no bell or title into a pipe', async () => {
    const { llm, dir, flags } = await fixtures.setUp();
    llm.enqueue({ kind: 'text', text: 'Piped answer.' });
    const result = await runOi([...flags, '-m', 'hello'], cliEnv(dir));
    expect(result.stdout).toContain('Piped answer.');
    expect(result.stdout + result.stderr).not.toContain(BELL);
    expect(result.stdout + result.stderr).not.toContain('\x1b]0;');
  });
});
