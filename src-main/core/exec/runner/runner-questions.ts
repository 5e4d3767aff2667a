import type { ComputerAnswer } from '../engine/types';
import type { SessionRun } from '../session/session-types';
import type { ComputerReplyCommand, ComputerRequestMessage, InputReplyCommand, RunnerMessage } from './runner-protocol';

// The input() questions of one runner run, apart from runner-session.ts: a question is asked only
// once two things have come in by different ways (the runner's input_request on the side channel,
// its position marker in the terminal), and withdrawn on an interrupt or the run's end. That
// bookkeeping is its own concern; the session only feeds it what arrives and sends its replies.
// The cell's screen actions (`computer.*` in Python, docs/computer-use.md#in-code) are asked here too:
// main's computer use for the run decides whether each may be done at all, and does it.

interface Question {
  requested: { prompt: string; password: boolean } | null;
  marked: boolean;
  asked: boolean;
}

/** A runner's request for a line of input, as the side channel carries it (runner-protocol.ts). */
export interface RunnerInputRequest {
  seq: number;
  prompt: string;
  password: boolean;
  /** false when no marker was written: asked without waiting for one. */
  marked: boolean;
}

export class RunQuestions {
  /** The cell's questions by number: asked once both the request and its marker are in. */
  private readonly questions = new Map<number, Question>();
  /** Withdraws open questions (an interrupt; the run's end). Made with the run's first question:
   *  aborting one costs ~50 µs (its DOMException), a good share of a warm run's work in main. */
  private abort: AbortController | null = null;

  /** `reply` sends an answer to the runner (the session drops it once the run is over). */
  constructor(
    private readonly run: SessionRun,
    private readonly reply: (reply: InputReplyCommand | ComputerReplyCommand) => void,
  ) {}

  /** The question's position marker, seen in the terminal with the run's tag. */
  marked(seq: number): void {
    this.question(seq).marked = true;
    this.maybeAsk(seq);
  }

  /** The runner's input_request (or computer_request) for this run. */
  requested(request: RunnerInputRequest | ComputerRequestMessage): void {
    if ('action' in request) return this.act(request);
    const question = this.question(request.seq);
    if (question.requested) return;
    question.requested = { prompt: request.prompt, password: request.password };
    if (!request.marked) question.marked = true;
    this.maybeAsk(request.seq);
  }

  /** A screen action: done (or refused) by the run's computer use; refused at once where it has none. */
  private act(request: ComputerRequestMessage): void {
    const send = (answer: ComputerAnswer) => this.reply(computerReply(request, answer));
    const computer = this.run.computer;
    if (!computer) return send({ ok: false, text: COMPUTER_OFF });
    // Withdrawn with the questions (an interrupt, the run's end): the action's approval stops waiting.
    void computer(request.action, (this.abort ??= new AbortController()).signal)
      .catch((err: unknown): ComputerAnswer => ({
        ok: false,
        text: `The action failed: ${err instanceof Error ? err.message : String(err)}`,
      }))
      .then(send);
  }

  /** Open questions are answered with end-of-input. */
  withdraw(): void {
    this.abort?.abort();
    this.abort = null;
  }

  private question(seq: number): Question {
    let question = this.questions.get(seq);
    if (!question) {
      question = { requested: null, marked: false, asked: false };
      this.questions.set(seq, question);
    }
    return question;
  }

  /**
   * Asks once the request and its marker are both in: the marker comes after the text printed
   * before the question, so the prompt the person sees is the output's last line (the cell may
   * have printed it before input(), or through sys.stdin with no prompt argument at all).
   */
  private maybeAsk(seq: number): void {
    const question = this.questions.get(seq);
    if (!question?.requested || !question.marked || question.asked) return;
    question.asked = true;
    const { password } = question.requested;
    const prompt = this.run.output.trailingLine() || question.requested.prompt;
    void this.run.input
      .ask({ prompt, password, mode: 'line', from: 'runner', command: null }, (this.abort ??= new AbortController()).signal)
      .catch(() => ({ kind: 'eof' }) as const)
      .then((answer) => {
        this.reply({
          type: 'input_reply',
          id: this.run.runId,
          seq,
          ...(answer.kind === 'line' ? { value: answer.text } : { eof: true }),
        });
      });
  }
}

const COMPUTER_OFF = 'Not done: computer use is off in this conversation (only the person can turn it on, with the Computer switch).';

function computerReply(request: ComputerRequestMessage, answer: ComputerAnswer): ComputerReplyCommand {
  const { shot, ...rest } = answer;
  return { type: 'computer_reply', id: request.id, seq: request.seq, ...rest, ...(shot ?? {}) };
}

/**
 * A message for no run (none is active, or another is): a screen action is refused at once, so the
 * thread that asked (one a cell left running) does not wait for a reply forever. Others are dropped.
 */
export function refuseStale(message: RunnerMessage, send: (reply: ComputerReplyCommand) => void): void {
  if (message.type === 'computer_request')
    send(computerReply(message, { ok: false, text: 'Not done: no cell of this session is running.' }));
}
