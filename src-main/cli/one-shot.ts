import readline from 'node:readline/promises';
import type { AnyEvent } from '@contract';
import type { CliSession } from './cli-session';
import { editInEditor, editorCommand } from './code-editor';
import type { Style } from './terminal-style';
import { TextPrinter } from './text-printer';

export interface OneShotOptions {
  session: CliSession;
  message: string;
  json: boolean;
  style: Style;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/**
 * `oi -m "…"`: one message, the whole turn, then the exit code — 0 only when the agent finished
 * (turn.end reason "done"). With --json, stdout carries exactly one event per line (the contract's
 * {name, payload}); anything for humans goes to stderr. Without a terminal to ask, code that needs
 * approval is declined (pass --auto-run to let it run).
 */
export async function runOneShot(opts: OneShotOptions): Promise<number> {
  const { session, style } = opts;
  const human = new TextPrinter((text) => (opts.json ? opts.stderr : opts.stdout).write(text), style);
  const canAsk = !!opts.stdin.isTTY;
  let failed = false;
  let interrupts = 0;

  const onInterrupt = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    opts.stderr.write('\nstopping… (Ctrl-C again to quit at once)\n');
    void session.stop().catch(() => undefined);
  };
  process.on('SIGINT', onInterrupt);

  const approvals: Promise<void>[] = [];
  const off = session.onEvent((event: AnyEvent) => {
    if (opts.json) opts.stdout.write(`${JSON.stringify(event)}\n`);
    else human.handle(event);
    if (event.name === 'error') failed = true;
    if (event.name === 'cell.awaiting-approval') approvals.push(decide(event.payload.cell));
    if (event.name === 'install.awaiting-approval') approvals.push(decideInstall(event.payload));
  });

  const decide = async (cell: Extract<AnyEvent, { name: 'cell.awaiting-approval' }>['payload']['cell']) => {
    if (!canAsk) {
      opts.stderr.write(style.yellow('Not running the code: no terminal to ask for approval. Pass --auto-run (-y) to run code without asking.\n'));
      await session.skip(cell).catch(() => undefined);
      return;
    }
    if (opts.json) opts.stderr.write(`\n${cell.language}:\n${cell.code}\n`);
    const rl = readline.createInterface({ input: opts.stdin, output: opts.stderr, terminal: true });
    try {
      for (;;) {
        const reply = (await rl.question('Run this code? (y)es, (n)o, (e)dit: ')).trim().toLowerCase();
        if (reply === 'y' || reply === 'yes') return void (await session.approve(cell, null));
        if (reply === 'n' || reply === 'no') return void (await session.skip(cell));
        if (reply === 'e' || reply === 'edit') {
          const editor = editorCommand(opts.env);
          if (!editor) {
            opts.stderr.write('Set $EDITOR to edit code here, or use the interactive mode (oi without -m).\n');
            continue;
          }
          rl.pause();
          const result = editInEditor(editor, cell.code, cell.language);
          rl.resume();
          if ('error' in result) opts.stderr.write(`${result.error}\n`);
          else return void (await session.approve(cell, result.code));
        }
      }
    } finally {
      rl.close();
    }
  };

  const decideInstall = async (q: Extract<AnyEvent, { name: 'install.awaiting-approval' }>['payload']) => {
    let install = false;
    if (canAsk) {
      const rl = readline.createInterface({ input: opts.stdin, output: opts.stderr, terminal: true });
      try {
        opts.stderr.write(`${q.reason}\n${q.text}\n  ${q.command}\n`);
        install = /^y(es)?$/i.test((await rl.question('Install it? (y)es, (n)o: ')).trim());
      } finally {
        rl.close();
      }
    } else {
      opts.stderr.write(style.yellow(`Not installing ${q.packages.join(', ')}: no terminal to ask. Set exec.autoInstall to "auto" (well-known packages) or run interactively.\n`));
    }
    await session.call('install.answer', { conversationId: session.conversationId, questionId: q.questionId, install }).catch(() => undefined);
  };

  try {
    const end = await session.send(opts.message);
    await Promise.all(approvals);
    human.newline();
    if (!opts.json && end.reason !== 'done') opts.stderr.write(style.yellow(`The turn ended: ${end.reason}.\n`));
    return end.reason === 'done' && !failed ? 0 : 1;
  } catch (err) {
    opts.stderr.write(style.red(`error: ${(err as Error).message}\n`));
    return 1;
  } finally {
    off();
    process.off('SIGINT', onInterrupt);
  }
}
