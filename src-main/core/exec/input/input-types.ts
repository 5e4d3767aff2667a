// Input a run asks for (docs/exec.md#input): a question from the language's own input function
// (Python's input(), Ruby's gets… through the runner's side channel) or from a program waiting at
// the terminal (sudo, apt, a shell's read), and its answer.

export interface InputQuestion {
  /** What the program printed on the line it asks on ("Your name? ", "[sudo] password for ann: "). */
  prompt: string;
  /** The program reads without echo (getpass, sudo, ssh): the answer is a secret. */
  password: boolean;
  /** 'line': a line and Enter answer it; 'keys': a full-screen or keypress program reads single keys. */
  mode: 'line' | 'keys';
  /** The language's own input function, through its runner, or a program reading the terminal. */
  from: 'runner' | 'terminal';
  /** The program that waits at the terminal (`sudo`), when known. */
  command: string | null;
}

export type InputAnswer = { kind: 'line'; text: string } | { kind: 'eof' };

/**
 * Asks a person. Present only when someone can answer (the desktop app, the interactive CLI);
 * without it every question gets end-of-input at once. The signal aborts when the question is no
 * longer asked (the run ended or was stopped, the program stopped waiting, the wait limit passed).
 */
export type InputAsker = (question: InputQuestion, signal: AbortSignal) => Promise<InputAnswer>;

/** What a session calls when its program asks for input. */
export interface RunInput {
  /** Someone may answer; without a person every question gets end-of-input at once. */
  readonly personPresent: boolean;
  ask(question: InputQuestion, signal?: AbortSignal): Promise<InputAnswer>;
}

export const END_OF_INPUT: InputAnswer = { kind: 'eof' };
