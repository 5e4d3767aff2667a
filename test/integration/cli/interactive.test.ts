import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastToolResult, shellCall, useOiTerminal } from './support/oi-terminal-run';
import { sendAndAnswer, standInEditor } from '../../support/cli-run';
import { useSharedOiTerminal } from './support/shared-oi-terminal';

const { start } = useOiTerminal();
// All but the $EDITOR test need only a conversation of their own: they share one oi, without an editor
// (issue 36: ~1.4 CPU-seconds a start). The first test has the conversation oi starts with; the last
// one ends oi with `exit`, and its exit code is checked there.
const { fresh } = useSharedOiTerminal({ EDITOR: '', VISUAL: '' });

describe('interactive oi in a terminal', () => {
  it('asks before running, runs on y, and streams the output and the answer', async () => {
    const { oi, llm } = await fresh();
    llm.enqueue(shellCall('call_y', 'echo approved-$((1 + 1))'), { kind: 'text', text: 'The command printed approved-2.' });
    await oi.expect('> ');
    await oi.enter('run it', 'echo approved-$((1 + 1))', 'Run this code? (y)es, (n)o, (e)dit');
    await oi.enter('y', 'approved-2', 'The command printed approved-2.', '> ');
    expect(lastToolResult(llm)).toContain('approved-2');

    await oi.enter('%tokens', /Tokens so far: [\d,]+ in, [\d,]+ out; cost \$\d+\.\d{4}/, /of 128,000 context tokens/);
  });

  it('runs the code as edited in $EDITOR', async () => {
    // A stand-in editor: rewrites the file it is given, as a person would in vim.
    const { oi, llm } = await start({ EDITOR: standInEditor('printf "echo edited-in-editor\\n" > "$1"') });
    llm.enqueue(shellCall('call_e', 'echo original'), { kind: 'text', text: 'Done.' });
    await sendAndAnswer(oi, 'go', 'e');
    await oi.expectEach('edited-in-editor', 'Done.');
    expect(lastToolResult(llm)).toContain('edited-in-editor');
    expect(lastToolResult(llm)).not.toContain('original');
  });

  it('edits inline when no editor is set', async () => {
    const { oi, llm } = await fresh();
    llm.enqueue(shellCall('call_i', 'echo original'), { kind: 'text', text: 'Done inline.' });
    await sendAndAnswer(oi, 'go', 'e');
    await oi.expect('End with a line holding only a dot');
    oi.line('echo typed-inline');
    await oi.enter('.', 'Done inline.');
    expect(lastToolResult(llm)).toContain('typed-inline');
  });

  it('declines on n, and saves, loads and undoes with magic commands', async () => {
    const { oi, llm, dir } = await fresh();
    llm.enqueue(shellCall('call_n', 'touch never-made'), { kind: 'text', text: 'OK, skipped.' });
    await sendAndAnswer(oi, 'make a file', 'n');
    await oi.expectEach('OK, skipped.', '> ');
    expect(lastToolResult(llm)).toMatch(/declined/);
    expect(existsSync(path.join(dir, 'ws', 'never-made'))).toBe(false);

    const saved = path.join(dir, 'saved.json');
    await oi.enter(`%save ${saved}`, `Saved to ${saved}`);
    const lmc = JSON.parse(readFileSync(saved, 'utf8')) as Array<{ role: string; type: string; content: string }>;
    expect(lmc[0]).toEqual({ role: 'user', type: 'message', content: 'make a file' });
    expect(lmc.some((m) => m.type === 'code' && m.content === 'touch never-made')).toBe(true);

    await oi.enter('%undo', 'Removed your last message');
    await oi.enter(`%load ${saved}`, /Loaded \d+ items/);
    llm.enqueue({ kind: 'text', text: 'Continuing the loaded one.' });
    await oi.enter('and now?', 'Continuing the loaded one.', '> ');
    const users = (llm.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> }).messages.filter(
      (m) => m.role === 'user',
    );
    expect(users.map((m) => m.content)).toEqual(['make a file', 'and now?']);

    await oi.enter('%help', '%export <file.ipynb>');
  });

  it('interrupts a running command with Ctrl-C and stays in the session', async () => {
    const { oi, llm, output } = await fresh();
    llm.enqueue(shellCall('call_sleep', 'echo sleeping-now; sleep 60; echo woke-up'), { kind: 'text', text: 'Still here.' });
    await sendAndAnswer(oi, 'wait a minute', 'y');
    await oi.expect('sleeping-now');
    oi.type('\x03');
    await oi.expectEach('stopping', '(stopped)', '> ');
    expect(output()).not.toMatch(/^woke-up/m);

    // The session goes on: the next message is answered, and the model sees the interrupted run.
    await oi.enter('what happened?', 'Still here.', '> ');
    expect(lastToolResult(llm)).toMatch(/interrupted/i);
    oi.line('exit');
    expect(await oi.exited).toBe(0);
  });
});
