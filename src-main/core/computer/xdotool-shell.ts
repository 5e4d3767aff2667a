import { startAppProgram } from '../programs/app-programs';

type XdotoolProcess = ReturnType<typeof startAppProgram>;

// One long-lived `xdotool -` (its script mode: it reads commands from standard input, one line each,
// and runs each as soon as it is read) for the looks around every action — where the pointer is,
// whether a locker's window is up, where the app's own windows are — and for the pointer actions
// themselves. Starting an X program per look cost ~5 processes an action (bench/computer.bench.ts).
//
// Each command is followed by `getdisplaygeometry`, whose "W H" line no other command used here
// prints: it closes that command's answer, so answers are told apart even when a command prints
// nothing (a search that finds nothing). xdotool's script reader expands `$NAME` from its environment
// and splits on spaces, so only lines built by this module from numbers and fixed patterns go in —
// never text from the model (typing and key names have a process of their own, x11-screen.ts).
// An X error (a window gone between a search and its geometry) ends xdotool: the query fails, and
// the next one starts a fresh process.

const END = /^(\d+) (\d+)$/;
const SAFE_LINE = /^[A-Za-z0-9 _.%@^$()|'-]+$/;

/** A command's output lines, and the screen's size printed after it. */
export interface ShellAnswer {
  text: string;
  width: number;
  height: number;
}

interface Pending {
  commands: number;
  answers: ShellAnswer[];
  current: string[];
  resolve: (answers: ShellAnswer[]) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class XdotoolShell {
  private child: XdotoolProcess | null = null;
  private buffered = '';
  private stderr = '';
  private pending: Pending | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly env: () => NodeJS.ProcessEnv,
    private readonly timeoutMs = 10_000,
  ) {}

  /** The answers of these commands, in order. */
  run(commands: readonly string[]): Promise<ShellAnswer[]> {
    for (const line of commands)
      if (!SAFE_LINE.test(line) || /\$\w/.test(line))
        return Promise.reject(new Error(`not a command for the xdotool shell: ${JSON.stringify(line)}`));
    const next = this.queue.then(() => this.send(commands));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Ends the process (the conversation or the app is done with the screen). */
  close(): void {
    this.child?.kill();
    this.child = null;
  }

  private send(commands: readonly string[]): Promise<ShellAnswer[]> {
    const child = this.child ?? this.start();
    return new Promise<ShellAnswer[]>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error('xdotool did not answer in time')), this.timeoutMs);
      this.pending = { commands: commands.length, answers: [], current: [], resolve, reject, timer };
      this.stderr = '';
      child.stdin.write(commands.map((c) => `${c}\ngetdisplaygeometry\n`).join(''));
    });
  }

  private start(): XdotoolProcess {
    const child = startAppProgram('xdotool', ['-'], { env: this.env() });
    this.child = child;
    this.buffered = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (text: string) => this.onOutput(text));
    child.stderr.on('data', (text: string) => (this.stderr = (this.stderr + text).slice(-2000)));
    child.stdin.on('error', () => undefined); // a write after it died: its exit says so
    // It lives as long as the app uses the screen, but never keeps a process (oi, a test) from ending:
    // a query waiting for it holds its own timer.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as { unref?: () => void }).unref?.();
    const gone = (why: string) => {
      if (this.child === child) this.child = null;
      this.fail(new Error(`xdotool ended (${why}): ${this.stderr.trim().slice(0, 300) || 'no message'}`));
    };
    child.once('error', (err) => gone(err.message));
    child.once('exit', (code, signal) => gone(signal ?? `exit code ${code}`));
    return child;
  }

  private onOutput(text: string): void {
    this.buffered += text;
    let end: number;
    while ((end = this.buffered.indexOf('\n')) >= 0) {
      const line = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 1);
      const pending = this.pending;
      if (!pending) continue;
      const size = END.exec(line);
      if (!size) {
        pending.current.push(line);
        continue;
      }
      pending.answers.push({ text: pending.current.join('\n'), width: Number(size[1]), height: Number(size[2]) });
      pending.current = [];
      if (pending.answers.length === pending.commands) {
        clearTimeout(pending.timer);
        this.pending = null;
        pending.resolve(pending.answers);
      }
    }
  }

  private fail(err: Error): void {
    const pending = this.pending;
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending = null;
    pending.reject(err);
    // A process that stopped answering is not trusted with the next query.
    this.close();
  }
}
