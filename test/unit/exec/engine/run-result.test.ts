import { defaultSettings } from '@contract';
import { describe, expect, it } from 'vitest';
import { assembleResult, finalStatus, simpleResult, type FinishedRun } from '../../../../src-main/core/exec/engine/run-result';
import { interruptedMessage, timeoutMessage } from '../../../../src-main/core/exec/output/messages';
import { describeLimits } from '../../../../src-main/core/exec/process/limits';

const limits = describeLimits(defaultSettings.exec, null);

function finished(overrides: Partial<FinishedRun> = {}): FinishedRun {
  return {
    status: 'done',
    exitCode: 0,
    cwd: null,
    message: null,
    note: '',
    output: { outputs: [], modelText: '', capNote: null, spilled: null },
    startedAt: Date.now(),
    executionCount: 1,
    limits,
    shell: null,
    ...overrides,
  };
}

describe('result assembly', () => {
  it('puts notes before the run text and drops trailing newlines', () => {
    const result = assembleResult(
      finished({
        note: 'Note: the session was restarted.',
        output: {
          outputs: [{ output_type: 'stream', name: 'stdout', text: 'hi\n' }],
          modelText: 'hi\n\n',
          capNote: null,
          spilled: null,
        },
      }),
    );
    expect(result.forModel).toBe('Note: the session was restarted.\nhi');
    expect(result.outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: 'hi\n' }]);
  });

  it('says "(no output)" only when there is neither text, nor an output, nor a message', () => {
    expect(assembleResult(finished()).forModel).toBe('(no output)');
    const image = { output_type: 'display_data' as const, data: { 'image/png': 'AAAA' }, metadata: {} };
    expect(assembleResult(finished({ output: { outputs: [image], modelText: '', capNote: null, spilled: null } })).forModel).toBe('');
  });

  it('names the exit code of a failed run that brought no message', () => {
    expect(
      assembleResult(
        finished({ status: 'failed', exitCode: 2, output: { outputs: [], modelText: 'oops\n', capNote: null, spilled: null } }),
      ).forModel,
    ).toBe('oops\n[exit code 2]');
    expect(assembleResult(finished({ status: 'failed', exitCode: 2, message: 'It stopped.' })).forModel).toBe('[It stopped.]');
  });

  it('ends with the message, which also reaches the outputs as stderr marked the app’s note', () => {
    const result = assembleResult(
      finished({
        status: 'timeout',
        message: 'Timed out.',
        output: { outputs: [], modelText: 'partial', capNote: null, spilled: null },
      }),
    );
    expect(result.forModel).toBe('partial\n[Timed out.]');
    expect(result.outputs.at(-1)).toEqual({ output_type: 'stream', name: 'stderr', text: 'Timed out.\n', appNote: true });
  });

  it('reports the shell only for shell cells', () => {
    expect(assembleResult(finished({ shell: 'zsh' })).shell).toBe('zsh');
    expect('shell' in assembleResult(finished())).toBe(false);
  });

  it('a simple result is its message, for the model and as stderr marked the app’s note', () => {
    const result = simpleResult('unavailable', 'R is not installed.', Date.now(), limits, 3);
    expect(result).toMatchObject({ status: 'unavailable', forModel: 'R is not installed.', executionCount: 3, exitCode: null, cwd: null });
    expect(result.outputs).toEqual([{ output_type: 'stream', name: 'stderr', text: 'R is not installed.\n', appNote: true }]);
  });
});

describe('final status', () => {
  const context = { timeoutMs: 5000, survived: true, language: 'python' };

  it("is the session's own when the engine did not stop the run", () => {
    expect(finalStatus({ status: 'failed', exitCode: 1, cwd: null, message: null }, null, context)).toEqual({
      status: 'failed',
      message: null,
    });
  });

  it('is the reason the engine stopped the run, with a sentence saying so', () => {
    const timedOut = finalStatus({ status: 'interrupted', exitCode: 130, cwd: null, message: null }, 'timeout', context);
    expect(timedOut).toEqual({ status: 'timeout', message: timeoutMessage(5000, true, 'python') });
    const interrupted = finalStatus({ status: 'died', exitCode: null, cwd: null, message: 'gone' }, 'interrupted', {
      ...context,
      survived: false,
    });
    expect(interrupted).toEqual({ status: 'interrupted', message: interruptedMessage(false, 'python') });
  });

  it('keeps done when the run finished before the stop took effect', () => {
    expect(finalStatus({ status: 'done', exitCode: 0, cwd: null, message: null }, 'timeout', context)).toEqual({
      status: 'done',
      message: null,
    });
  });
});
