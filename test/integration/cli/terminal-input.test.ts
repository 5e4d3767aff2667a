import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatRequests, shellCall, useOiTerminal, userMessages } from './support/oi-terminal-run';
import type { OiTerminal } from '../../support/cli-process';
import { sendAndAnswer } from '../../support/cli-run';
import { useSharedOiTerminal } from './support/shared-oi-terminal';

// The interactive CLI in a real pseudo-terminal, driven as a person does: typing, pasting (with the
// terminal's bracketed-paste markers), resizing, Ctrl-C, and closing the terminal window.

const { start } = useOiTerminal();
// The tests that need only a conversation of their own share one oi (those that end it start their own).
const { fresh } = useSharedOiTerminal();

/** A paste held as one piece of the message (numbered across the oi the tests share). */
const THREE_LINES_PASTED = /\[pasted text #\d+, 3 lines\]/;

/** At the prompt, types `text` without sending it, and waits until the line shows it. */
async function typeAtPrompt(oi: OiTerminal, text: string): Promise<void> {
  await oi.expect('> ');
  oi.type(text);
  await oi.expect(text);
}

function savedConversation(dir: string): { items: Array<{ kind: string; text?: string; status?: string }> } {
  const folder = path.join(dir, 'conversations');
  // The newest: the data folder may hold the conversations of earlier tests that shared its oi.
  const [file] = readdirSync(folder)
    .filter((n) => n.endsWith('.json'))
    .sort((a, b) => statSync(path.join(folder, b)).mtimeMs - statSync(path.join(folder, a)).mtimeMs);
  return JSON.parse(readFileSync(path.join(folder, file ?? ''), 'utf8')) as {
    items: Array<{ kind: string; text?: string; status?: string }>;
  };
}

describe('oi at the keyboard', () => {
  it('sends a pasted block of lines as one message, and starts one turn for it', async () => {
    const { oi, llm, dir } = await fresh();
    llm.enqueue({ kind: 'text', text: 'Got all three lines.' });
    await oi.expect('> ');
    oi.paste('first line\nsecond line\nthird line');
    await oi.expect('[pasted text #1, 3 lines]');
    oi.type('\r');
    await oi.expectEach('Got all three lines.', '> ');
    expect(chatRequests(llm)).toHaveLength(1);
    expect(userMessages(llm)).toEqual(['first line\nsecond line\nthird line']);
    const saved = savedConversation(dir);
    expect(saved.items.filter((i) => i.kind === 'user').map((i) => i.text)).toEqual(['first line\nsecond line\nthird line']);
  });

  it('does not take a paste during an approval question as its answer, and keeps it for the next message', async () => {
    const { oi, llm } = await fresh();
    llm.enqueue(shellCall('call_p', 'echo asked-first'), { kind: 'text', text: 'Ran it.' }, { kind: 'text', text: 'Read your paste.' });
    await oi.expect('> ');
    await oi.enter('run something', 'Run this code?');
    // A paste that starts with "n" and holds lines: it must not decline the cell, nor answer anything.
    oi.paste('no, wait\ny\nthis is for later');
    await oi.expect('kept for your next message');
    expect(chatRequests(llm)).toHaveLength(1);
    await oi.enter('y', 'asked-first', 'Ran it.');
    // Back at the prompt, the paste waits on the line, to be sent (or edited) by the person.
    await oi.expect(THREE_LINES_PASTED);
    oi.type('\r');
    await oi.expect('Read your paste.');
    expect(userMessages(llm)).toEqual(['run something', 'no, wait\ny\nthis is for later']);
  });

  it('reads lines typed in one burst (a terminal without paste brackets) as one message', async () => {
    const { oi, llm } = await fresh();
    llm.enqueue({ kind: 'text', text: 'One message.' });
    await oi.expect('> ');
    // One write: the pty delivers it in one read, as a paste is when the terminal does not bracket it.
    oi.type('alpha\rbeta\rgamma');
    await oi.expect(THREE_LINES_PASTED);
    oi.type('\r');
    await oi.expect('One message.');
    expect(chatRequests(llm)).toHaveLength(1);
    expect(userMessages(llm)).toEqual(['alpha\nbeta\ngamma']);
  });

  it('clears the whole line on Ctrl-C with the cursor in the middle of it', async () => {
    const { oi, llm } = await fresh();
    llm.enqueue({ kind: 'text', text: 'Only the new text.' });
    await typeAtPrompt(oi, 'hello world');
    oi.type('\x1b[D\x1b[D\x1b[D\x1b[D\x1b[D');
    oi.type('\x03');
    await expect.poll(async () => (await oi.cursorRow())?.trimEnd()).toBe('>');
    await oi.enter('abc', 'Only the new text.');
    expect(userMessages(llm)).toEqual(['abc']);
  });

  it('redraws the line when the terminal is resized, and sends what was typed', async () => {
    const { oi, llm } = await fresh();
    llm.enqueue({ kind: 'text', text: 'Resized fine.' });
    await typeAtPrompt(oi, 'a message typed before the window changed size');
    await oi.resize(30, 20);
    oi.type(' and after');
    await expect.poll(async () => (await oi.screen())?.join('')).toContain('and after');
    await oi.resize(100, 30);
    oi.type('\r');
    await oi.expect('Resized fine.');
    expect(userMessages(llm)).toEqual(['a message typed before the window changed size and after']);
  });

  it('ends quietly when the terminal is closed during a run, and stops the code', async () => {
    // --no-sandbox: the test follows the code's process by its pid, which the sandbox's PID namespace hides.
    const { oi, llm, dir } = await start({}, ['--no-sandbox']);
    const pidFile = path.join(dir, 'sleeper.pid');
    llm.enqueue(shellCall('call_h', `sleep 300 & echo $! > ${pidFile}; echo sleeping; wait`));
    await sendAndAnswer(oi, 'sleep', 'y');
    await oi.expect('sleeping');
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    oi.hangUp();
    // 129 = 128 + SIGHUP: ended by the hangup, by its own hand — not killed by it, and no crash (SIGABRT).
    expect(await oi.exited).toBe(129);
    expect(oi.signal).toBeNull();
    await expect.poll(() => isAlive(pid)).toBe(false);
    const cell = savedConversation(dir).items.find((i) => i.kind === 'cell');
    expect(cell?.status).toBe('interrupted');
  });

  it('leaves a clean line for the shell on exit, and frames code with rules of one width', async () => {
    const { oi, llm } = await start();
    llm.enqueue(shellCall('call_r', 'echo framed'), { kind: 'text', text: 'Framed.' });
    await sendAndAnswer(oi, 'frame it', 'y');
    await oi.expectEach('Framed.', '> ');
    const rows = await oi.screen();
    const rules = rows.filter((r) => /^──.*─{3}$/.test(r));
    expect(rules.length).toBeGreaterThanOrEqual(2);
    expect(new Set(rules.map((r) => r.length)).size).toBe(1);
    oi.type('\x04');
    expect(await oi.exited).toBe(0);
    // The prompt was taken off the screen: the shell's prompt starts on a clean line.
    expect(await oi.cursorRow()).toBe('');
    expect((await oi.screen()).at(-1)).not.toMatch(/^>/);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !existsSync(`/proc/${pid}`) ? false : !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}
