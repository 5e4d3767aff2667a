import readline from 'node:readline';
import type { CellItem } from '@contract';
import type { CliSession } from './cli-session';
import { editInEditor, editorCommand } from './code-editor';
import { runMagic, type MagicContext } from './magic-commands';
import type { Style } from './terminal-style';
import { TextPrinter } from './text-printer';

type Mode =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'approval'; cell: CellItem }
  | { kind: 'inline-edit'; cell: CellItem; lines: string[] }
  | { kind: 'install'; questionId: string };

export interface InteractiveOptions {
  session: CliSession;
  style: Style;
  env: NodeJS.ProcessEnv;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { isTTY?: boolean };
  banner: string;
  meta: MagicContext['meta'];
}

/**
 * The interactive chat. One readline serves every state: a message at the prompt starts a turn; a
 * line typed while the agent works joins the conversation at its next step; y/n/e/a answers an
 * approval. Ctrl-C stops the running turn (and its code) and returns to the prompt; at an empty
 * prompt it asks for a second Ctrl-C, or `exit`, to leave.
 */
export function runInteractive(opts: InteractiveOptions): Promise<number> {
  const { session, style, env } = opts;
  const printer = new TextPrinter((text) => opts.output.write(text), style);
  const rl = readline.createInterface({ input: opts.input, output: opts.output, terminal: !!opts.output.isTTY, historySize: 200 });
  let mode: Mode = { kind: 'idle' };
  let lastInterrupt = 0;
  const print = (line: string) => printer.line(line);
  const magic: MagicContext = { session, print, meta: opts.meta };

  const prompt = (text = '> ') => {
    printer.newline();
    rl.setPrompt(style.bold(text));
    rl.prompt();
  };
  const toIdle = () => {
    mode = { kind: 'idle' };
    prompt();
  };

  session.onEvent((event) => {
    printer.handle(event);
    if (event.name === 'cell.awaiting-approval') {
      mode = { kind: 'approval', cell: event.payload.cell };
      prompt('Run this code? (y)es, (n)o, (e)dit, (a)lways in this conversation: ');
    } else if (event.name === 'install.awaiting-approval') {
      mode = { kind: 'install', questionId: event.payload.questionId };
      print(style.yellow(`${event.payload.reason}\n${event.payload.text}\n  ${event.payload.command}`));
      prompt('Install it? (y)es, (n)o: ');
    } else if (event.name === 'cell.done' && (mode.kind === 'approval' || mode.kind === 'inline-edit') && mode.cell.id === event.payload.cell.id) {
      mode = { kind: 'busy' };
    } else if (event.name === 'turn.end') {
      if (event.payload.reason === 'stopped') print(style.dim('(stopped)'));
      toIdle();
    }
  });

  const startTurn = async (text: string) => {
    mode = { kind: 'busy' };
    rl.setPrompt('');
    try {
      await session.call('chat.send', { conversationId: session.conversationId, text });
    } catch (err) {
      print(style.red(`Could not send: ${(err as Error).message}`));
      toIdle();
    }
  };

  const answer = async (cell: CellItem, raw: string) => {
    const reply = raw.trim().toLowerCase();
    mode = { kind: 'busy' };
    rl.setPrompt('');
    if (reply === 'y' || reply === 'yes') return void (await session.approve(cell, null).catch(report));
    if (reply === 'a' || reply === 'always') return void (await session.approve(cell, null, true).catch(report));
    if (reply === 'n' || reply === 'no') return void (await session.skip(cell).catch(report));
    if (reply === 'e' || reply === 'edit') return edit(cell);
    mode = { kind: 'approval', cell };
    prompt('Please answer y, n, e or a: ');
  };

  const edit = async (cell: CellItem) => {
    const editor = editorCommand(env);
    if (!editor) {
      print(style.dim('Type the new code. End with a line holding only a dot (.), or Ctrl-C to stop.'));
      mode = { kind: 'inline-edit', cell, lines: [] };
      prompt('… ');
      return;
    }
    // The editor owns the terminal until it exits.
    rl.pause();
    const raw = (opts.input as NodeJS.ReadStream).isTTY ? (opts.input as NodeJS.ReadStream) : null;
    raw?.setRawMode?.(false);
    const result = editInEditor(editor, cell.code, cell.language);
    raw?.setRawMode?.(true);
    rl.resume();
    if ('error' in result) {
      print(style.red(result.error));
      mode = { kind: 'approval', cell };
      prompt('Run this code? (y)es, (n)o, (e)dit, (a)lways in this conversation: ');
      return;
    }
    await runEdited(cell, result.code);
  };

  const runEdited = async (cell: CellItem, code: string) => {
    mode = { kind: 'busy' };
    rl.setPrompt('');
    print(style.cyan(`── edited ${cell.language} ──`));
    print(style.cyan(code));
    await session.approve(cell, code).catch(report);
  };

  const report = (err: unknown) => print(style.red((err as Error).message));

  rl.on('line', (line) => {
    const current = mode;
    switch (current.kind) {
      case 'approval':
        void answer(current.cell, line);
        return;
      case 'install': {
        const reply = line.trim().toLowerCase();
        if (!['y', 'yes', 'n', 'no'].includes(reply)) return prompt('Please answer y or n: ');
        mode = { kind: 'busy' };
        rl.setPrompt('');
        const install = reply.startsWith('y');
        void session.call('install.answer', { conversationId: session.conversationId, questionId: current.questionId, install }).catch(report);
        return;
      }
      case 'inline-edit':
        if (line.trim() === '.') void runEdited(current.cell, current.lines.join('\n'));
        else current.lines.push(line);
        return;
      case 'busy':
        if (['exit', 'quit', '%exit'].includes(line.trim())) return rl.close();
        if (line.trim().startsWith('%')) {
          void runMagic(line.trim(), magic);
          return;
        }
        if (line.trim()) {
          // Heard while the agent works: it reads this at its next step.
          void session.call('chat.send', { conversationId: session.conversationId, text: line }).catch(report);
          print(style.dim('(noted; the agent will read this at its next step)'));
        }
        return;
      case 'idle': {
        const text = line.trim();
        if (!text) return prompt();
        if (text === 'exit' || text === 'quit' || text === '%exit') return rl.close();
        if (text.startsWith('%')) {
          void runMagic(text, magic).then(() => prompt());
          return;
        }
        void startTurn(line);
      }
    }
  });

  rl.on('SIGINT', () => {
    if (mode.kind !== 'idle' || session.running()) {
      printer.line(style.yellow('^C stopping…'));
      mode = { kind: 'busy' };
      void session.stop().catch(report);
      return;
    }
    const now = Date.now();
    if (rl.line) {
      // Clears what was typed, like a shell.
      rl.write(null, { ctrl: true, name: 'u' });
      return prompt();
    }
    if (now - lastInterrupt < 3000) return rl.close();
    lastInterrupt = now;
    print(style.dim('(press Ctrl-C again or type exit to leave)'));
    prompt();
  });

  return new Promise((resolve) => {
    rl.on('close', () => {
      printer.newline();
      void (session.running() ? session.stop() : Promise.resolve()).finally(() => resolve(0));
    });
    print(opts.banner);
    print(style.dim('Type %help for commands, exit to leave. Ctrl-C stops the agent.'));
    prompt();
  });
}
