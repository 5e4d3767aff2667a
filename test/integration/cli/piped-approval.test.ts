import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { standInEditor } from '../../support/cli-run';
import { lastToolResult, shellCall, userMessages, useOiTerminal } from './support/oi-terminal-run';

// Issue 25, item 7: `git diff | oi "review this"` at a terminal could never approve code — standard
// input was the pipe, so oi said "no terminal to ask" and declined. The answers now come from the
// controlling terminal (/dev/tty), as git and less read theirs. Without one (runOi starts oi in a
// session of its own), code is still declined and the model told nobody could be asked:
// `test/integration/cli/one-shot.test.ts` › *declines code when there is no terminal to ask and no -y,
// says so and exits 3*.

const DIFF = 'diff --git a/notes.txt b/notes.txt\n+a line from the pipe\n';
const { start } = useOiTerminal();

describe('a piped message at a terminal', () => {
  it('reads the message from the pipe and the approval from the terminal, then runs the approved code', async () => {
    const { oi, llm, dir } = await start({}, ['review this'], { piped: DIFF });
    llm.enqueue(shellCall('call_p', 'echo approved-at-the-tty > approved.txt'), { kind: 'text', text: 'Reviewed it.' });
    await oi.expect('Run this code? (y)es, (n)o, (e)dit');
    await oi.enter('y', 'Reviewed it.');
    expect(await oi.exited).toBe(0);
    expect(readFileSync(path.join(dir, 'ws', 'approved.txt'), 'utf8')).toBe('approved-at-the-tty\n');
    expect(lastToolResult(llm)).not.toMatch(/declined|nobody could be asked/);
    // The message is the prompt argument, then the piped text.
    expect(JSON.stringify(userMessages(llm, 0))).toContain('review this\\n\\ndiff --git a/notes.txt');
  });

  it('runs nothing when the person answers no at the terminal', async () => {
    const { oi, llm, dir } = await start({}, ['review this'], { piped: DIFF });
    llm.enqueue(shellCall('call_n', 'touch refused.txt'), { kind: 'text', text: 'Left it.' });
    await oi.expect('Run this code?');
    await oi.enter('n', 'Left it.');
    expect(existsSync(path.join(dir, 'ws', 'refused.txt'))).toBe(false);
    expect(lastToolResult(llm)).toMatch(/declined/);
  });

  it('opens the editor on the terminal, not on the pipe, when the person edits', async () => {
    // A stand-in editor that writes whether its standard input is a terminal (vim needs it to be).
    const editor = standInEditor('if [ -t 0 ]; then w=terminal; else w=pipe; fi\nprintf "echo editor-on-a-%s\\n" "$w" > "$1"');
    const { oi, llm } = await start({ EDITOR: editor, VISUAL: '' }, ['review this'], { piped: DIFF });
    llm.enqueue(shellCall('call_e', 'echo as-the-model-wrote'), { kind: 'text', text: 'Ran the edit.' });
    await oi.expect('Run this code?');
    await oi.enter('e', 'Ran the edit.');
    expect(lastToolResult(llm)).toContain('editor-on-a-terminal');
  });
});
