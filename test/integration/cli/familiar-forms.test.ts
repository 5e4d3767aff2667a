import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi, tempDir } from '../../support/cli-process';
import { chatRequests, shellCall, useCliFixtures, userMessages } from './support/oi-terminal-run';
import { resultConversationId, sendAndAnswer } from '../../support/cli-run';
import { useSharedOiTerminal } from './support/shared-oi-terminal';

// The forms people know from other terminal agents (classic Open Interpreter, Claude Code, Codex, aider),
// each run as a person would: in a pseudo-terminal, or piped.

const { setUp, terminal } = useCliFixtures();
// Tests that need only a conversation of their own share an oi: one started in <dir>/project that
// asks before running code, and one that runs it without asking on a terminal that takes colour.
const projectIn = (dir: string) => path.join(dir, 'project');
const asking = useSharedOiTerminal(
  {},
  () => [],
  (dir) => {
    mkdirSync(projectIn(dir));
    return { cwd: projectIn(dir) };
  },
);
const autoRunColour = useSharedOiTerminal({ NO_COLOR: '' }, () => ['-y']);

/**
 * A data folder holding one conversation, "the first question" answered by `oi -m`, and the next answer
 * queued. The `oi -m` runs once per file (issue 36: ~1.5 CPU-seconds a start), in a folder of its own;
 * each test gets a copy of that folder, its paths rewritten to the copy's, and a model server of its
 * own: what the tests prove is what a later `oi` makes of the saved conversation.
 */
let firstConversation: Promise<{ dir: string; id: string }> | null = null;
const firstFolder = tempDir('oi-cli-first-');
afterAll(() => firstFolder.remove());
async function withFirstConversation() {
  firstConversation ??= (async () => {
    const llm = await startScriptedLlm();
    try {
      llm.enqueue({ kind: 'text', text: 'The first answer.' });
      const flags = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl];
      const first = await runOi([...flags, '--json', '-m', 'the first question'], cliEnv(firstFolder.dir));
      expect(first.code, first.stderr).toBe(0);
      expect(userMessages(llm)).toEqual(['the first question']);
      return { dir: firstFolder.dir, id: resultConversationId(first.stdout) };
    } finally {
      await llm.close();
    }
  })();
  const made = await firstConversation.catch((error: unknown) => {
    firstConversation = null; // the next test tries again
    throw error;
  });
  const { llm, dir, flags } = await setUp();
  cpSync(made.dir, dir, { recursive: true });
  const saved = path.join(dir, 'conversations');
  for (const name of readdirSync(saved).filter((n) => n.endsWith('.json') || n.endsWith('.jsonl'))) {
    const file = path.join(saved, name);
    writeFileSync(file, readFileSync(file, 'utf8').split(made.dir).join(dir));
  }
  llm.enqueue({ kind: 'text', text: 'The second answer.' });
  return { llm, dir, flags, id: made.id };
}

describe('familiar forms', () => {
  it('oi "do this" in a terminal starts the chat with that message', async () => {
    const { llm, dir, flags } = await setUp();
    llm.enqueue({ kind: 'text', text: 'Started with your words.' });
    const oi = terminal([...flags, 'list', 'the', 'files'], cliEnv(dir));
    await oi.expectEach('> list the files', 'Started with your words.', '> ');
    expect(userMessages(llm)).toEqual(['list the files']);
    oi.line('exit');
    expect(await oi.exited).toBe(0);
  });

  it('-c continues the last conversation, showing its last exchange', { timeout: 180_000 }, async () => {
    const { llm, dir, flags, id } = await withFirstConversation();

    const oi = terminal([...flags, '-c'], cliEnv(dir));
    await oi.expectEach(`Continuing "the first question" (${id}`, '> the first question', 'The first answer.', /\n> $/);
    await oi.enter('the second question', 'The second answer.');
    expect(userMessages(llm)).toEqual(['the first question', 'the second question']);
    oi.line('exit');
    expect(await oi.exited).toBe(0);
  });

  it('--conversation takes an id or its first characters, and says so when none matches', { timeout: 180_000 }, async () => {
    const { llm, dir, flags, id } = await withFirstConversation();
    const byPrefix = await runOi([...flags, '--conversation', id.slice(0, 6), '-m', 'the second question'], cliEnv(dir));
    expect(byPrefix.code).toBe(0);
    expect(userMessages(llm)).toEqual(['the first question', 'the second question']);
    const unknown = await runOi([...flags, '--conversation', 'zzzz-no-such', '-m', 'hi'], cliEnv(dir));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no saved conversation has an id starting with "zzzz-no-such" (see oi --list)');
  });

  it('resuming says the conversation runs code without asking after "always"', { timeout: 180_000 }, async () => {
    const { llm, dir, flags } = await setUp();
    llm.enqueue(shellCall('a1', 'echo always-ran'), { kind: 'text', text: 'Ran without asking next time.' });
    let oi = terminal([...flags], cliEnv(dir));
    await sendAndAnswer(oi, 'run it', 'a');
    await oi.expect('Ran without asking next time.');
    oi.line('exit');
    expect(await oi.exited).toBe(0);
    oi = terminal([...flags, '-c'], cliEnv(dir));
    await oi.expect('This conversation runs code without asking ("always in this conversation" was chosen).');
  });

  it('runs !command and %% command lines in the shell without the model, and %jupyter exports', async () => {
    const { oi, llm, dir } = await asking.fresh();
    const here = projectIn(dir);
    await oi.expectEach('Code runs in ' + here, '> ');
    await oi.enter('!echo bang-$((6 * 7)) > bang.txt; cat bang.txt', 'bang-42');
    await oi.enter('%% pwd', here);
    await oi.enter('!exit 3', '(exit 3)');
    expect(chatRequests(llm)).toHaveLength(0);
    const out = path.join(dir, 'classic.ipynb');
    await oi.enter(`%jupyter ${out}`, `Exported 0 cells to ${out}.`);
    expect(existsSync(out)).toBe(true);
  });

  it('bare %jupyter, as classic took it, exports to a new file in the conversation’s folder, never over one there', async () => {
    const { oi, dir } = await asking.fresh();
    const here = projectIn(dir);
    await oi.expect('> ');
    oi.line('%jupyter');
    const first = /Exported 0 cells to (\S+\.ipynb)\./.exec(await oi.expect(/Exported 0 cells to \S+\.ipynb\./))?.[1] ?? '';
    expect(path.dirname(first)).toBe(here);
    expect(JSON.parse(readFileSync(first, 'utf8'))).toMatchObject({ nbformat: 4 });
    oi.line('%jupyter');
    const second = /Exported 0 cells to (\S+\.ipynb)\./.exec(await oi.expect(/Exported 0 cells to \S+\.ipynb\./))?.[1] ?? '';
    expect(second).not.toBe(first);
    expect(path.dirname(second)).toBe(here);
  });

  it('asks for a missing key with hidden input, checks it and uses it', { timeout: 180_000 }, async () => {
    const { llm, dir, flags } = await setUp();
    const env = cliEnv(dir);
    delete env.OPENAI_API_KEY;
    llm.enqueue({ kind: 'text', text: 'Your key works.' });
    const oi = terminal([...flags], env);
    await oi.expectEach('No OpenAI API key is set (OPENAI_API_KEY).', 'OpenAI API key (hidden): ');
    await oi.enter('sk-typed-in-the-terminal-0042', 'Key checked and stored in memory for this run only', '> ');
    await oi.enter('hello', 'Your key works.');
    expect(chatRequests(llm).at(-1)?.headers.authorization).toBe('Bearer sk-typed-in-the-terminal-0042');
    // Hidden: the key never reached the screen.
    expect(oi.raw).not.toContain('sk-typed');
  });

  it('says at once when the model server does not answer, naming its URL', async () => {
    const { dir } = await setUp();
    const oi = terminal(['--provider', 'openai', '--model', 'gpt-4o', '--base-url', 'http://127.0.0.1:9/v1'], cliEnv(dir));
    await oi.expect(/The model server does not answer: could not reach http:\/\/127\.0\.0\.1:9/);
  });

  it(
    'keeps the keychain to one quiet line, and --list away from it altogether; without a key or a terminal, says which variable to set',
    { timeout: 180_000 },
    async () => {
      const { dir } = await setUp();
      // No D-Bus session: the keychain cannot answer.
      const env = cliEnv(dir, { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' });
      delete env.OI_NO_KEYCHAIN;
      const list = await runOi(['--list'], env);
      expect(list.code).toBe(0);
      expect(list.stderr).toBe('');
      delete env.OPENAI_API_KEY;
      delete env.ANTHROPIC_API_KEY;
      // Also the one-shot form without a key (one process for both checks, issue 36): it says which variable to set.
      const run = await runOi(['--provider', 'openai', '--model', 'gpt-4o', '-m', 'hi'], env);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('no OpenAI API key: set OPENAI_API_KEY, or run oi in a terminal once to store one in the keychain');
      const lines = run.stderr.trim().split('\n');
      expect(lines.filter((l) => /keychain/i.test(l) && !/OPENAI_API_KEY/.test(l))).toEqual([
        'No OS keychain answered: keys typed here are kept for this run only.',
      ]);
    },
  );
});

describe('what the screen shows', () => {
  // 300,000 lines and a 3 MB line go through the shell, the engine's cap and the log file: CPU work that
  // took over a minute on a loaded machine (not a timing assertion: a bound for a slow, real run).
  it('bounds a huge output: head, a count with the full log, tail; a 3 MB line is cut', { timeout: 240_000 }, async () => {
    const { llm, dir, flags } = await setUp();
    const code = 'seq 1 300000; python3 -c "print(\'x\' * 3_000_000)"; echo last-line';
    llm.enqueue(shellCall('big', code), { kind: 'text', text: 'That was long.' });
    const result = await runOi([...flags, '-y', '-m', 'print a lot'], cliEnv(dir));
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(result.stdout.length).toBeLessThan(20_000);
    expect(lines).toContain('60');
    expect(lines).not.toContain('61');
    const note = lines.find((l) => l.includes('lines not shown'));
    const log = /all of the output: (.+\.log)$/.exec(note ?? '')?.[1] ?? '';
    expect(note).toMatch(/^… [\d,]+ lines not shown; all of the output: .+\.log$/);
    expect(lines.at(lines.indexOf(note ?? '') + 1)).toMatch(/^2999\d\d$/);
    expect(result.stdout).toMatch(/^x{2000} … \(2,998,000 more characters\)$/m);
    expect(lines).toContain('last-line');
    expect(result.stdout).toContain('That was long.');
    const full = readFileSync(log, 'utf8');
    expect(full.split('\n').filter((l) => /^\d+$/.test(l))).toHaveLength(300_000);
    expect(full).toContain('x'.repeat(3_000_000));
  });

  it('saves images to a file and prints its path; shows an error once, with the whole traceback on demand', async () => {
    const { oi, llm, output } = await autoRunColour.fresh();
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const code = `import base64\ndisplay(Image(data=base64.b64decode('${png}')))\ndef deep():\n    raise ValueError('went wrong deep down')\ndeep()`;
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'img', name: 'execute', arguments: { language: 'python', code } }] },
      { kind: 'text', text: 'Saw the error.' },
    );
    await oi.expect('> ');
    oi.line('draw and fail');
    const saved = await oi.expect(/\[image saved to (\S+\.png)\]/);
    const file = /saved to (\S+\.png)/.exec(saved)?.[1] ?? '';
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    await oi.expectEach('ValueError: went wrong deep down  (%traceback shows the whole traceback)', 'Saw the error.');
    expect(output().match(/ValueError: went wrong deep down/g)).toHaveLength(1);
    await oi.enter('%traceback', 'Traceback (most recent call last)', 'in deep');
  });

  it('says "No module named" once before offering to install it', async () => {
    const { oi, llm, output } = await asking.fresh();
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'mod', name: 'execute', arguments: { language: 'python', code: 'import surely_not_installed_pkg' } }] },
      { kind: 'text', text: 'Fine.' },
    );
    await sendAndAnswer(oi, 'import it', 'y');
    await oi.expect('Install it? (y)es, (n)o');
    expect(output().match(/No module named 'surely_not_installed_pkg'/g)).toHaveLength(1);
    await oi.enter('n', 'Fine.');
  });

  it('shows what the agent is doing while nothing is printed, on a terminal that takes colour', async () => {
    const { oi, llm } = await autoRunColour.fresh();
    llm.enqueue(shellCall('quiet', 'sleep 4; echo woke'), { kind: 'text', text: 'Done sleeping.' });
    await oi.expect('> ');
    await oi.enter('sleep quietly', /running shell… \d+ s/, 'Done sleeping.', '> ');
    expect((await oi.screen()).join('\n')).not.toMatch(/running shell…/);
  });
});
