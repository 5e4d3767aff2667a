import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyEvent } from '@contract';
import { describe, expect, it } from 'vitest';
import type { ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi, type OiTerminal } from '../../support/cli-process';
import { useCliRun } from '../../support/cli-run';

// Code that asks for input, from the command line (docs/exec.md#input): `oi -m` has nobody at the
// code's terminal, so the program gets end-of-input at once and the model is told; the interactive
// `oi` hands the question to the person at its own terminal, a password unseen and never kept.

const cli = useCliRun();

const python = (id: string, code: string) => ({
  kind: 'tool' as const,
  calls: [{ id, name: 'execute', arguments: { language: 'python', code } }],
});
type ToolMessage = { role: string; content: string };
const toolResults = (l: ScriptedLlm) =>
  (l.requests.at(-1)?.body as { messages: ToolMessage[] }).messages.filter((m) => m.role === 'tool').map((m) => m.content);
const flags = (l: ScriptedLlm) => ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', l.openaiBaseUrl];

/** `oi -m 'greet me'` (auto-run, `extra` flags) against a scripted model that runs `code` in Python, then says `last`. */
async function greetMe(code: string, last: string, extra: string[]) {
  const { llm, dir } = await cli.start('oi-cli-input-');
  llm.enqueue(python('call_ask', code), { kind: 'text', text: last });
  const run = ['--workspace', path.join(dir, 'ws'), '--auto-run', ...extra, '-m', 'greet me'];
  return { llm, result: await runOi([...flags(llm), ...run], cliEnv(dir)) };
}

describe('oi -m --json with code that asks for input', () => {
  // The run timeout stays at its default of 120 s and this test's own limit is far below it: the
  // cell can only have finished because the input was ended, not because the run timed out.
  it('ends the input at once, finishes the turn and tells the model why', { timeout: 60_000 }, async () => {
    const { llm, result } = await greetMe('name = input("Your name? ")\nprint("hello", name)', 'It needs a name as an argument.', [
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AnyEvent);
    const done = events.find((e) => e.name === 'cell.done');
    expect(done?.name === 'cell.done' && done.payload.cell.status).toBe('failed');
    expect(done?.name === 'cell.done' && done.payload.cell.limits?.timeoutMs).toBe(120_000);
    // Nobody was asked: no question was put to a person.
    expect(events.some((e) => e.name === 'cell.input-requested')).toBe(false);
    const told = toolResults(llm).at(-1) ?? '';
    expect(told).toContain('EOFError');
    expect(told).toContain(
      "The program asked for input ('Your name?'); no one can type here, so it got end-of-input: pass values as arguments",
    );
    const end = events.find((e) => e.name === 'turn.end');
    expect(end?.name === 'turn.end' && end.payload.reason).toBe('done');
  });
});

describe('oi -m, its output to a pipe, with code whose input fails', () => {
  // Issue 25, item 8: "a prompt prints after the error it led to". The prompt is a line without its
  // end, held in plain output until the line ends; the error came in between and was written first.
  it("prints the program's prompt before the error it led to", { timeout: 60_000 }, async () => {
    const { result } = await greetMe('print("before")\nname = input("Your name? ")\nprint("hello", name)', 'Done.', []);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    const prompt = lines.indexOf('Your name? ');
    const error = lines.findIndex((l) => l.startsWith('EOFError'));
    // In the order the program wrote them: its line, its prompt, then the error the prompt led to.
    expect(lines.indexOf('before')).toBeGreaterThan(0);
    expect(prompt).toBe(lines.indexOf('before') + 1);
    expect(error).toBe(prompt + 1);
  });
});

/** The interactive oi in a pseudo-terminal, auto-run on, against a scripted model. */
async function interactiveOi(prefix: string, env: Record<string, string> = {}): Promise<{ oi: OiTerminal; llm: ScriptedLlm; dir: string }> {
  const { llm, dir } = await cli.start(prefix);
  const oi = cli.terminal([...flags(llm), '--workspace', path.join(dir, 'ws'), '--auto-run'], cliEnv(dir, env));
  return { oi, llm, dir };
}

describe('interactive oi with code that asks for input', () => {
  it('hands the question to the person; a password is typed unseen and kept nowhere', { timeout: 90_000 }, async () => {
    const t = await interactiveOi('oi-pty-input-');
    const secret = 'hunter2-cli-secret';
    t.llm.enqueue(
      python(
        'call_name',
        'name = input("Your name? ")\nimport getpass\npw = getpass.getpass("Password: ")\nprint("hello", name, "with", len(pw), "characters")',
      ),
      { kind: 'text', text: 'Greeted.' },
    );
    await t.oi.expect('> ');
    t.oi.line('greet me');
    await t.oi.expect('(input; Ctrl-D ends it) Your name? ');
    t.oi.line('Bob');
    await t.oi.expect('(password, typed unseen; Ctrl-D ends it) Password: ');
    t.oi.line(secret);
    await t.oi.expect(`hello Bob with ${secret.length} characters`);
    await t.oi.expect('Greeted.');
    await t.oi.expect('> ');
    expect(t.oi.output).not.toContain(secret);
    const rows = await t.oi.screen();
    expect(rows.join('\n')).not.toContain(secret);
    // The question's line shows the program's prompt and the answer: neither is printed again.
    expect(rows.filter((r) => r.includes('Your name?') && !r.includes('input('))).toEqual(['(input; Ctrl-D ends it) Your name? Bob']);
    expect(rows.filter((r) => r.includes('Password:') && !r.includes('getpass('))).toEqual([
      '(password, typed unseen; Ctrl-D ends it) Password: ',
    ]);
    expect(JSON.stringify(t.llm.requests.map((r) => r.body))).not.toContain(secret);
    const told = toolResults(t.llm).at(-1) ?? '';
    expect(told).toContain("The program asked for input ('Your name?'); the user typed an answer.");
    expect(told).toContain("The program asked for a password ('Password:'); the user entered it (not shown).");
    t.oi.line('exit');
    expect(await t.oi.exited).toBe(0);
    const saved = readdirSync(path.join(t.dir, 'conversations')).filter((n) => n.endsWith('.json'));
    expect(saved).toHaveLength(1);
    expect(readFileSync(path.join(t.dir, 'conversations', saved[0] as string), 'utf8')).not.toContain(secret);
  });

  it(
    'shows a prompt and its answer once on a colour terminal, and output that only looks like them as it came',
    { timeout: 90_000 },
    async () => {
      const t = await interactiveOi('oi-pty-input-colour-', { FORCE_COLOR: '1' });
      // The second answer is not echoed as typed: the program prints its own line that starts like it.
      t.llm.enqueue(python('call_colour', 'a = input("First? ")\nprint("got", a)\nb = input("Second? ")\nprint(b + "!!")'), {
        kind: 'text',
        text: 'Both read.',
      });
      await t.oi.expect('> ');
      t.oi.line('ask twice');
      await t.oi.expect('First? ');
      await t.oi.expect(/Ctrl-D ends it\)[^\n]*First\? /);
      t.oi.line('one');
      await t.oi.expect(/Ctrl-D ends it\)[^\n]*Second\? /);
      t.oi.line('two');
      await t.oi.expect('Both read.');
      const rows = await t.oi.screen();
      expect(rows.filter((r) => r.includes('First?') && !r.includes('input('))).toEqual(['(input; Ctrl-D ends it) First? one']);
      expect(rows.filter((r) => r.includes('Second?') && !r.includes('input('))).toEqual(['(input; Ctrl-D ends it) Second? two']);
      expect(rows).toContain('got one');
      expect(rows).toContain('two!!');
    },
  );
});
