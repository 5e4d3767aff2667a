import { END_OF_INPUT, type InputAnswer, type InputAsker, type InputQuestion, type RunInput } from './input-types';

// One run's questions: each goes to the person when there is one (the run's timeout is paused
// meanwhile, and the wait has its own limit), or gets end-of-input at once when there is none. What
// happened is kept for one sentence to the model, which must learn that the program asked, and
// why it got nothing when nobody could answer.

export interface InputBrokerOptions {
  /** Absent: nobody can answer here (`oi -m`, or the setting "end the input"). */
  asker?: InputAsker;
  /** How long one question may wait for the person before it gets end-of-input. */
  waitLimitMs: number;
  /** The run's clock: stopped while a person is asked, so typing an answer is not counted as run time. */
  pauseClock(): void;
  resumeClock(): void;
  /** Called before the person is asked: the prompt they are to read must have reached them first. */
  beforeAsking?(): void;
}

type Outcome = 'nobody' | 'answered' | 'ended' | 'no-answer' | 'withdrawn';

/** What happened to the questions of one kind: how many, and the first few for the model to read. */
interface Tally {
  count: number;
  examples: InputQuestion[];
}

/** Questions quoted to the model per outcome; a program asking in a loop is counted, not listed. */
const EXAMPLES = 3;

export class InputBroker implements RunInput {
  /** By outcome, passwords apart from other input (the model reads one sentence for each). */
  private readonly tallies = new Map<string, Tally>();
  private readonly open = new Set<AbortController>();
  private closed = false;
  /** The programs a password was sent to (answered, at the terminal): see forget-sudo.ts. */
  readonly passwordsSentTo = new Set<string>();

  constructor(private readonly options: InputBrokerOptions) {}

  /** Someone may answer (the person is asked rather than given end-of-input). */
  get personPresent(): boolean {
    return !!this.options.asker;
  }

  /** A question is waiting for the person now. */
  get waiting(): boolean {
    return this.open.size > 0;
  }

  async ask(question: InputQuestion, signal?: AbortSignal): Promise<InputAnswer> {
    const asker = this.options.asker;
    if (!asker || this.closed) {
      this.tally('nobody', question);
      return END_OF_INPUT;
    }
    let outcome: Outcome = 'withdrawn';
    const controller = new AbortController();
    const withdraw = (): void => controller.abort();
    signal?.addEventListener('abort', withdraw, { once: true });
    if (signal?.aborted) withdraw();
    this.open.add(controller);
    this.options.pauseClock();
    this.options.beforeAsking?.();
    const limit = setTimeout(() => {
      outcome = 'no-answer';
      controller.abort();
    }, this.options.waitLimitMs);
    try {
      const answer = await Promise.race([asker(question, controller.signal), whenAborted(controller.signal)]);
      if (controller.signal.aborted) return END_OF_INPUT;
      outcome = answer.kind === 'eof' ? 'ended' : 'answered';
      if (outcome === 'answered' && question.password && question.command) this.passwordsSentTo.add(question.command);
      return answer;
    } catch {
      return END_OF_INPUT;
    } finally {
      clearTimeout(limit);
      signal?.removeEventListener('abort', withdraw);
      this.open.delete(controller);
      this.options.resumeClock();
      this.tally(outcome, question);
    }
  }

  /** The run is over or being stopped: open questions are withdrawn, later ones get end-of-input. */
  close(): void {
    this.closed = true;
    for (const controller of this.open) controller.abort();
  }

  /** Sentences for the model about the questions asked, or null when there were none. */
  modelNote(): string | null {
    const lines: string[] = [];
    for (const password of [false, true]) {
      const get = (outcome: Outcome) => this.tallies.get(`${outcome}/${password}`);
      const nobody = get('nobody');
      if (nobody)
        lines.push(
          `${asking(nobody)}; no one can type here, so it got end-of-input: pass values as arguments, environment variables or files instead.`,
        );
      const answered = get('answered');
      if (answered) lines.push(`${asking(answered)}; the user ${password ? 'entered it (not shown)' : 'typed an answer'}.`);
      const ended = get('ended');
      if (ended) lines.push(`${asking(ended)}; the user ended the input (end-of-input).`);
      const unanswered = get('no-answer');
      if (unanswered)
        lines.push(`${asking(unanswered)}; no answer came within ${formatWait(this.options.waitLimitMs)}, so it got end-of-input.`);
    }
    return lines.length > 0 ? lines.join('\n') : null;
  }

  private tally(outcome: Outcome, question: InputQuestion): void {
    const key = `${outcome}/${question.password}`;
    const tally = this.tallies.get(key) ?? { count: 0, examples: [] };
    tally.count++;
    if (tally.examples.length < EXAMPLES) tally.examples.push(question);
    this.tallies.set(key, tally);
  }
}

function asking(tally: Tally): string {
  const what = tally.examples[0]?.password ? 'a password' : 'input';
  const prompts = [...new Set(tally.examples.map((q) => quotePrompt(q.prompt)).filter(Boolean))];
  const more = tally.count > tally.examples.length && prompts.length > 0 ? ', …' : '';
  const shown = prompts.length > 0 ? ` (${prompts.join(', ')}${more})` : '';
  const times = tally.count > 1 ? ` ${tally.count} times` : '';
  const first = tally.examples[0];
  const who = first?.from === 'terminal' && first.command ? `The program ${first.command}, waiting at the terminal,` : 'The program';
  return `${who} asked for ${what}${times}${shown}`;
}

function formatWait(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

function quotePrompt(prompt: string): string {
  const text = prompt.replace(/\s+/g, ' ').trim();
  if (!text) return '';
  return `'${text.length > 80 ? `${text.slice(0, 77)}…` : text}'`;
}

function whenAborted(signal: AbortSignal): Promise<InputAnswer> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(END_OF_INPUT);
    else signal.addEventListener('abort', () => resolve(END_OF_INPUT), { once: true });
  });
}
