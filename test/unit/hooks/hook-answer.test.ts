import { describe, expect, it } from 'vitest';
import { readHookAnswer } from '../../../src-main/core/hooks/hook-answer';

// How a hook's run is read (docs/agent.md#hooks): exit 0 goes on, exit 2 refuses with stderr as the
// reason, JSON on stdout decides; anything else is a failure the person is told about.

const exited = (code: number, stdout = '', stderr = '') => ({ kind: 'exited', code, stdout, stderr }) as const;

describe('a hook’s answer', () => {
  it('reads exit 0 as allow, exit 2 as a refusal with stderr as its reason', () => {
    expect(readHookAnswer(exited(0, 'some text\n'), 10_000)).toEqual({ ok: true, decision: 'allow', reason: null });
    expect(readHookAnswer(exited(2, '', 'no rm -rf here\n'), 10_000)).toEqual({ ok: true, decision: 'deny', reason: 'no rm -rf here' });
    expect(readHookAnswer(exited(2), 10_000)).toEqual({ ok: true, decision: 'deny', reason: null });
  });

  it('reads a JSON decision on stdout, and refuses to guess at JSON it cannot read', () => {
    expect(readHookAnswer(exited(0, '{"decision":"deny","reason":"not on Fridays"}'), 1000)).toEqual({
      ok: true,
      decision: 'deny',
      reason: 'not on Fridays',
    });
    expect(readHookAnswer(exited(0, '{"decision":"ask"}'), 1000)).toMatchObject({ ok: true, decision: 'ask' });
    expect(readHookAnswer(exited(0, '{"decision":"block"}'), 1000)).toMatchObject({
      ok: false,
      failure: expect.stringContaining('"allow", "deny" or "ask"'),
    });
    expect(readHookAnswer(exited(0, '{"decision":'), 1000)).toMatchObject({ ok: false, failure: expect.stringContaining('cannot read') });
  });

  it('names every failure: another exit code, a signal, a time-out, a hook that could not start', () => {
    expect(readHookAnswer(exited(1, '', 'Traceback: boom\n'), 1000)).toEqual({ ok: false, failure: 'exited with code 1: Traceback: boom' });
    expect(readHookAnswer({ kind: 'killed', signal: 'SIGSEGV', stderr: '' }, 1000)).toEqual({
      ok: false,
      failure: 'was killed by SIGSEGV',
    });
    expect(readHookAnswer({ kind: 'timeout', stderr: '' }, 2500)).toEqual({
      ok: false,
      failure: 'did not answer within 2.5 s and was stopped',
    });
    expect(readHookAnswer({ kind: 'not-started', error: 'sh was not found' }, 1000)).toEqual({
      ok: false,
      failure: 'could not be started (sh was not found)',
    });
  });
});
