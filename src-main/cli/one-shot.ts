import { errorMessage, PLAN_LANGUAGE } from '@contract';
import { isScheduleCell } from './schedule-question';
import type { AnyEvent } from '@contract';
import { ApprovalQuestions } from './approval-questions';
import type { CliSession } from './cli-session';
import { resultEvent } from './json-result';
import { forTerminal } from './terminal-places';
import type { PromptLine } from './terminal/prompt-line';
import type { Style } from './terminal-style';
import { wrapRows } from './terminal/wrap-rows';
import { TextPrinter } from './text-printer';
import { withSavedCommand } from './saved-command-line';
import { SUBAGENT_QUESTION_EVENTS, SubagentOutput } from './subagent-output';

export interface OneShotOptions {
  session: CliSession;
  message: string;
  json: boolean;
  /** For the answer and the code (stdout, or stderr with --json). */
  style: Style;
  /** For errors and notes on stderr. */
  errStyle: Style;
  env: NodeJS.ProcessEnv;
  /** The person's terminal, to ask before running code; null when there is none (piped, cron, CI). */
  prompt: PromptLine | null;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Where full logs of long outputs and saved images go. */
  outputDir: string | null;
  /** An unattended run's limit: the turn is stopped once it has run this long. */
  timeLimitMs?: number | undefined;
  /** Told how the turn ended (an unattended run records it), before the result line. */
  ended?: ((end: { code: number; reason: string }) => Promise<void>) | undefined;
}

/** Exit codes (also in `oi --help`). */
export const EXIT = { done: 0, failed: 1, declined: 3, interrupted: 130 } as const;

/**
 * `oi -m "…"` (or a piped message): one message, the whole turn, then the exit code — 0 only when the
 * agent finished (turn.end "done"). Text for people goes to stdout, errors to stderr. With --json,
 * stdout carries exactly one event per line (the contract's {name, payload}) and a last "result" line;
 * anything for humans goes to stderr. Without a terminal to ask, code that needs approval is declined
 * — said on stderr and in the exit code (3); -y lets it run.
 */
export async function runOneShot(opts: OneShotOptions): Promise<number> {
  const { session, style, errStyle, prompt } = opts;
  const humanOut = opts.json ? opts.stderr : opts.stdout;
  // On a terminal the output goes above the prompt line (where questions are asked), else straight out.
  const sameTerminal = prompt !== null && (humanOut as { isTTY?: boolean }).isTTY === true;
  const human = new TextPrinter(
    sameTerminal && prompt
      ? { write: (t) => prompt.write(t), atLineStart: () => prompt.atLineStart, columns: () => prompt.columns }
      : { write: (t) => void humanOut.write(t), columns: terminalColumns(humanOut) },
    style,
    {
      errors: sameTerminal && prompt ? undefined : { write: (t) => void opts.stderr.write(t) },
      errorStyle: errStyle,
      outputDir: opts.outputDir,
      live: sameTerminal && prompt ? prompt.liveTerminal : null,
      workspace: () => session.workspace,
      // One message, then oi exits: there is no prompt to type %traceback at.
      tracebackHint: false,
    },
  );
  const note = (line: string) => (prompt && sameTerminal ? prompt.line(line) : opts.stderr.write(`${line}\n`));
  let failed = false;
  let lastError: string | null = null;
  let declined = 0;
  let interrupts = 0;

  const interrupt = () => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT.interrupted);
    note(errStyle.yellow('stopping… (Ctrl-C again to quit at once)'));
    void session.stop().catch(() => undefined);
  };
  process.on('SIGINT', interrupt);
  prompt?.on('interrupt', interrupt);
  prompt?.on('hangup', () => void session.stop().catch(() => undefined));
  const questions = prompt
    ? new ApprovalQuestions({
        session,
        prompt,
        style: errStyle,
        env: opts.env,
        onCancel: interrupt,
        shownError: (line) => human.shownError(line),
      })
    : null;

  const answers: Promise<void>[] = [];
  // Sub-agents: nested, indented output; with --json their events carry `subagent` (its conversation id and name).
  const subagents = new SubagentOutput({
    write: (text) => {
      human.newline();
      if (sameTerminal && prompt) prompt.write(text);
      else humanOut.write(text);
    },
    style,
    outputDir: opts.outputDir,
  });
  const offSubagents = session.onSubagentEvent((event, subagent) => {
    if (opts.json) opts.stdout.write(`${JSON.stringify({ ...event, subagent })}\n`);
    else subagents.childEvent(event, subagent);
    if (SUBAGENT_QUESTION_EVENTS.has(event.name)) react(event);
  });
  const off = session.onEvent((event: AnyEvent) => {
    if (opts.json) opts.stdout.write(`${JSON.stringify(event)}\n`);
    else {
      human.handle(event);
      subagents.parentEvent(event);
    }
    react(event);
  });
  function react(event: AnyEvent): void {
    if (event.name === 'error') failed = true;
    // The last error said: a script reading only the result line gets it there too.
    if (event.name === 'error') lastError = forTerminal(event.payload.message);
    if (event.name === 'notice' && event.payload.item.level === 'error') lastError = forTerminal(event.payload.item.text);
    if (event.name === 'cell.awaiting-approval') {
      if (questions) {
        // --json shows the code to the person on stderr before asking.
        if (opts.json) note(`${event.payload.cell.language}:\n${wrapRows(event.payload.cell.code, sameTerminal ? prompt.columns : null)}`);
        const { cell } = event.payload;
        answers.push(
          cell.language === PLAN_LANGUAGE
            ? questions.plan(cell)
            : isScheduleCell(cell.language)
              ? questions.schedule(cell)
              : questions.cell(cell),
        );
      } else {
        declined++;
        answers.push(
          session.skip(event.payload.cell, true).then(
            () => undefined,
            () => undefined,
          ),
        );
      }
    } else if (event.name === 'install.awaiting-approval') {
      if (questions) answers.push(questions.install(event.payload));
      else {
        note(
          errStyle.yellow(
            `Not installing ${event.payload.packages.join(', ')}: no terminal to ask. Set exec.autoInstall to "auto" (well-known packages) or run interactively.`,
          ),
        );
        answers.push(
          session
            .call('install.answer', {
              conversationId: session.ownerOf(event.payload.questionId),
              questionId: event.payload.questionId,
              install: false,
            })
            .then(
              () => undefined,
              () => undefined,
            ),
        );
      }
    } else if (event.name === 'network.awaiting-approval') {
      if (questions) answers.push(questions.network(event.payload));
      else {
        note(
          errStyle.yellow(
            `Not letting the code reach ${event.payload.host}: no terminal to ask. Add it to the sandbox's allowed hosts (docs/sandbox.md#network) or run interactively.`,
          ),
        );
        answers.push(
          session
            .call('network.answer', {
              conversationId: session.ownerOf(event.payload.questionId),
              questionId: event.payload.questionId,
              answer: 'deny',
            })
            .then(
              () => undefined,
              () => undefined,
            ),
        );
      }
    } else if (event.name === 'network.answered') questions?.withdraw(event.payload.questionId);
    else if (event.name === 'cell.done') questions?.withdraw(event.payload.cell.id);
  }

  let code: number = EXIT.failed;
  let reason = 'error';
  let timedOut = false;
  const limit =
    opts.timeLimitMs === undefined
      ? null
      : setTimeout(() => {
          timedOut = true;
          note(errStyle.yellow(`The run's time limit (${Math.round((opts.timeLimitMs ?? 0) / 1000)} s) is reached: stopping.`));
          void session.stop().catch(() => undefined);
        }, opts.timeLimitMs);
  try {
    const end = await session.send(await withSavedCommand(session, opts.message, (line) => human.line(style.dim(line))));
    questions?.withdrawAll();
    await Promise.all(answers);
    human.newline();
    reason = end.reason;
    if (declined > 0)
      note(
        errStyle.yellow(
          `Declined ${declined} code run${declined === 1 ? '' : 's'}: no terminal to ask for approval. Pass --auto-run (-y) to run code without asking.`,
        ),
      );
    if (end.reason !== 'done') note(errStyle.yellow(`The turn ended: ${end.reason}.`));
    code =
      end.reason === 'stopped' && interrupts > 0
        ? EXIT.interrupted
        : end.reason !== 'done' || failed
          ? EXIT.failed
          : declined > 0
            ? EXIT.declined
            : EXIT.done;
  } catch (err) {
    lastError = forTerminal(errorMessage(err));
    note(errStyle.red(`oi: ${lastError}`));
  } finally {
    off();
    offSubagents();
    process.off('SIGINT', interrupt);
    if (limit) clearTimeout(limit);
  }
  if (timedOut) reason = 'time-limit';
  await opts
    .ended?.({ code, reason: code === EXIT.declined ? 'declined' : reason })
    .catch((err: unknown) => note(errStyle.red(`oi: the run could not be recorded: ${errorMessage(err)}`)));
  if (opts.json)
    opts.stdout.write(
      `${JSON.stringify(resultEvent(await session.conversation().catch(() => null), session.conversationId, reason, code, lastError))}\n`,
    );
  return code;
}

/** A terminal's width, for a stream that is one (code written to it is wrapped at it). */
function terminalColumns(stream: NodeJS.WritableStream): (() => number) | undefined {
  const tty = stream as Partial<NodeJS.WriteStream>;
  return tty.isTTY ? () => tty.columns || 80 : undefined;
}
