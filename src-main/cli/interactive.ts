import { errorMessage, PLAN_LANGUAGE } from '@contract';
import { isScheduleCell } from './schedule-question';
import { togglePlanMode } from './plan-command';
import { ApprovalQuestions } from './approval-questions';
import type { CliSession } from './cli-session';
import { runMagic, type MagicContext } from './magic-commands';
import { withSavedCommand } from './saved-command-line';
import { runShellLine, shellLine } from './shell-line';
import type { PromptLine } from './terminal/prompt-line';
import type { Style } from './terminal-style';
import { TextPrinter } from './text-printer';
import { SubagentOutput } from './subagent-output';

export interface InteractiveOptions {
  session: CliSession;
  style: Style;
  env: NodeJS.ProcessEnv;
  /** The person's line; the agent's output is written above it. */
  prompt: PromptLine;
  banner: string;
  meta: MagicContext['meta'];
  /** `oi "do this"`: sent as the first message. */
  firstMessage?: string | null;
  /** Where full logs of long outputs and saved images go. */
  outputDir: string | null;
}

/** How the chat ended: the exit code, and whether the terminal went away (nothing more can be written). */
export interface InteractiveEnd {
  code: number;
  hungUp: boolean;
}

/**
 * The interactive chat. A line at the prompt starts a turn; a line typed while the agent works joins
 * the conversation at its next step; questions (run this code? install this?) take the line until
 * answered. Ctrl-C clears a half-typed line, else stops the running turn (and its code) and returns to
 * the prompt; at an empty idle prompt it asks for a second Ctrl-C, or `exit`, to leave. Ctrl-D leaves
 * (after the running turn). A closed terminal stops the turn and ends quietly.
 */
export function runInteractive(opts: InteractiveOptions): Promise<InteractiveEnd> {
  const { session, style, env, prompt } = opts;
  const printer = new TextPrinter(
    {
      write: (text) => prompt.write(text),
      atLineStart: () => prompt.atLineStart,
      columns: () => prompt.columns,
      clearLine: () => prompt.clearOutputLine(),
    },
    style,
    { outputDir: opts.outputDir, live: prompt.liveTerminal, workspace: () => session.workspace },
  );
  const print = (line: string) => prompt.line(line);
  const magic: MagicContext = { session, print, meta: opts.meta };
  let busy = false;
  let leaving = false;
  let lastInterrupt = 0;
  let finish: (end: InteractiveEnd) => void = () => undefined;

  const report = (err: unknown) => print(style.red(errorMessage(err)));
  const stop = () => {
    print(style.yellow('^C stopping…'));
    void session.stop().catch(report);
  };
  const questions = new ApprovalQuestions({
    session,
    prompt,
    style,
    env,
    onCancel: stop,
    shownError: (line) => printer.shownError(line),
    answered: (q, echo) =>
      q.conversationId === session.conversationId ? printer.inputEcho.expect(q.cellId, echo) : subagents.expectEcho(q, echo),
  });

  const idle = () => {
    busy = false;
    prompt.setChat(style.bold('> '), true);
  };
  const working = () => {
    busy = true;
    // While the agent works the line shows only once something is typed on it.
    prompt.setChat(style.dim('> '), false);
  };

  // The activity line, on terminals that take escape codes: what the agent waits for, and how long.
  const status = (text: string | null) => style.colour && prompt.setStatus(text);
  const languages = new Map<string, string>();

  // Sub-agents: nested, indented output; their questions are asked here like the conversation's own.
  const subagents = new SubagentOutput({
    write: (text) => {
      printer.newline();
      prompt.write(text);
    },
    style,
    columns: () => prompt.columns,
    outputDir: opts.outputDir,
  });
  // Each is asked with the sub-agent's name and answered to its own conversation (CliSession.ownerOf).
  session.onSubagentEvent((event, sub) => {
    subagents.childEvent(event, sub);
    if (event.name === 'cell.awaiting-approval') void questions.cell(event.payload.cell, sub.name);
    else if (event.name === 'cell.done') questions.withdraw(event.payload.cell.id);
    else if (event.name === 'install.awaiting-approval') void questions.install(event.payload, sub.name);
    else if (event.name === 'install.answered') questions.withdraw(event.payload.questionId);
    else if (event.name === 'network.awaiting-approval') void questions.network(event.payload, sub.name);
    else if (event.name === 'network.answered') questions.withdraw(event.payload.questionId);
    else if (event.name === 'cell.input-requested') void questions.input(event.payload, sub.name);
    else if (event.name === 'cell.input-closed') questions.withdraw(event.payload.questionId);
  });
  session.onEvent((event) => {
    printer.handle(event);
    subagents.parentEvent(event);
    if (event.name === 'cell.code') languages.set(event.payload.cellId, event.payload.language);
    else if (event.name === 'cell.running') status(`running ${languages.get(event.payload.cellId) ?? 'code'}`);
    else if (event.name === 'cell.done') status('thinking');
    else if (event.name === 'turn.end') status(null);
    if (event.name === 'cell.awaiting-approval' && event.payload.cell.language === PLAN_LANGUAGE) void questions.plan(event.payload.cell);
    else if (event.name === 'cell.awaiting-approval' && isScheduleCell(event.payload.cell.language))
      void questions.schedule(event.payload.cell);
    else if (event.name === 'cell.awaiting-approval') void questions.cell(event.payload.cell);
    else if (event.name === 'install.awaiting-approval') void questions.install(event.payload);
    else if (event.name === 'cell.done') questions.withdraw(event.payload.cell.id);
    else if (event.name === 'install.answered') questions.withdraw(event.payload.questionId);
    else if (event.name === 'network.awaiting-approval') void questions.network(event.payload);
    else if (event.name === 'network.answered') questions.withdraw(event.payload.questionId);
    else if (event.name === 'cell.input-requested') void questions.input(event.payload);
    else if (event.name === 'cell.input-closed') questions.withdraw(event.payload.questionId);
    else if (event.name === 'turn.end') {
      questions.withdrawAll();
      if (event.payload.reason === 'stopped') print(style.dim('(stopped)'));
      // The desktop's Retry, here: what ran stays in the record and the model goes on from it.
      if (event.payload.reason === 'error' && !leaving) print(style.dim('(%retry asks the model again; what ran stays)'));
      // A message sent in the turn's last moments starts the next turn as this one settles.
      setImmediate(() => {
        if (session.running()) return;
        if (leaving) return finish({ code: 0, hungUp: false });
        idle();
      });
    }
  });

  /** Sends a message, or with null asks again for the last answer (%retry, as the desktop's Retry). */
  const startTurn = async (text: string | null) => {
    working();
    status('thinking');
    try {
      const { conversationId } = session;
      if (text === null) await session.call('chat.regenerate', { conversationId });
      else await session.call('chat.send', { conversationId, text });
    } catch (err) {
      print(style.red(`Could not ${text === null ? 'retry' : 'send'}: ${errorMessage(err)}`));
      status(null);
      idle();
    }
  };

  const onSubmit = async (raw: string) => {
    const text = raw.trim();
    if (['exit', 'quit', '%exit'].includes(text)) return leave();
    if (/^\/plan(\s|$)/.test(text)) return togglePlanMode(session, text, print, style);
    if (!busy) {
      if (!text) return;
      const command = shellLine(text);
      if (command !== null) {
        working();
        await runShellLine(command, { prompt, cwd: (await session.conversation()).workspace, env, style });
        return idle();
      }
      if (/^%retry$/.test(text)) return startTurn(null);
      if (text.startsWith('%')) {
        await runMagic(text, magic);
        return;
      }
      return startTurn(await withSavedCommand(session, raw, (line) => print(style.dim(line))).catch(() => raw));
    }
    if (text.startsWith('%')) {
      await runMagic(text, magic);
      return;
    }
    if (shellLine(text) !== null) return print(style.dim('(shell lines run at the prompt, when the agent is done; Ctrl-C stops it)'));
    if (!text) return;
    // Heard while the agent works: it reads this at its next step.
    await session.call('chat.send', { conversationId: session.conversationId, text: raw }).catch(report);
    print(style.dim('(noted; the agent will read this at its next step)'));
  };

  const leave = () => {
    if (!session.running()) return finish({ code: 0, hungUp: false });
    leaving = true;
    void session.stop().catch(() => undefined);
  };

  prompt.on('submit', (text) => void onSubmit(text));
  prompt.on('paste-kept', () => print(style.dim('(the pasted text is kept for your next message; answer the question first)')));
  prompt.on('interrupt', () => {
    if (busy || session.running()) return stop();
    const now = Date.now();
    if (now - lastInterrupt < 3000) return finish({ code: 0, hungUp: false });
    lastInterrupt = now;
    print(style.dim('(press Ctrl-C again or type exit to leave)'));
  });
  prompt.on('eof', () => {
    if (!session.running()) return finish({ code: 0, hungUp: false });
    leaving = true;
    print(style.dim('(leaving when the agent is done; Ctrl-C stops it now)'));
  });
  prompt.on('hangup', () => {
    // Nobody is left to answer or read: stop the turn and its code, then end.
    leaving = true;
    questions.withdrawAll();
    if (!session.running()) return finish({ code: 129, hungUp: true });
    void session.stop().catch(() => undefined);
    void session.nextTurnEnd().then(() => finish({ code: 129, hungUp: true }));
  });

  return new Promise((resolve) => {
    let done = false;
    finish = (end) => {
      if (done) return;
      done = true;
      prompt.close();
      resolve(end);
    };
    prompt.start();
    print(opts.banner);
    print(style.dim('Type %help for commands, !command for a shell command, exit to leave. Ctrl-C stops the agent.'));
    if (opts.firstMessage) {
      print(`${style.bold('>')} ${opts.firstMessage}`);
      void startTurn(opts.firstMessage);
    } else idle();
  });
}
