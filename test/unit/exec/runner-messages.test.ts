import { describe, expect, it } from 'vitest';
import { RunnerMessage, toRunnerMessage } from '../../../src-main/core/exec/runner/runner-protocol';

// `done` is checked by hand before the schema (runner-protocol.ts); it must accept and shape exactly
// what the schema does.
describe('toRunnerMessage', () => {
  const cases: unknown[] = [
    { type: 'done', id: 'r1', ok: true },
    { type: 'done', id: 'r1', ok: false, cwd: '/work' },
    { type: 'done', id: 'r1', ok: true, cwd: null },
    { type: 'done', id: 'r1', ok: true, cwd: '/w', extra: 'dropped' },
    { type: 'done', id: 1, ok: true },
    { type: 'done', id: 'r1', ok: 'yes' },
    { type: 'done', id: 'r1' },
    { type: 'done', id: 'r1', ok: true, cwd: 3 },
    { type: 'synced', token: 'abc' },
    { type: 'output', id: 'r1', output: { output_type: 'stream', name: 'stdout', text: 'x' } },
    { type: 'nothing' },
    null,
    'done',
  ];

  it('gives what the schema gives for every shape of message', () => {
    for (const json of cases) {
      const parsed = RunnerMessage.safeParse(json);
      expect(toRunnerMessage(json)).toEqual(parsed.success ? parsed.data : null);
    }
  });
});
