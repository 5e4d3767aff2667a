import { constants, type WriteStream } from 'node:fs';
import { relative, sep } from 'node:path';
import { errorMessage } from '@contract';
import { openBeneath, unlinkBeneath } from '../../fs/no-follow-open';
import { TailRing, type StreamName, type TailPiece } from './tail-ring';

// The UI keeps a run's output up to a cap; past it, the whole output goes to a file in the
// workspace instead of memory, and the UI gets a note saying where. What the UI keeps of a run past
// the cap is its head and its tail (half the cap each), never a slice from the middle: the tail is a
// ring of the latest text, with the stream each piece came from. The file's write buffer is the
// only place output can pile up past the cap, so its backpressure is reported to whoever can pause
// the producer (the pty).
//
// The file is in the workspace, which the code (sandboxed or not) can change while the app writes:
// it is created exclusively, with no link followed at any component (no-follow-open.ts), so a link
// planted at .oi/, .oi/outputs/ or the file's own name never sends the app's write elsewhere.

export interface OutputCapOptions {
  capBytes: number;
  /** Where the full output goes once it passes the cap (created on demand)… */
  spillPath: string;
  /** …inside this folder (the workspace), below which no link is followed. */
  spillRoot: string;
  /** true: stop reading the program's output for now; false: go on. */
  onBackpressure: (paused: boolean) => void;
}

/** How far into the tail a line start is looked for. */
const LINE_START_SEARCH = 4096;

export class OutputCap {
  private kept: string[] = [];
  private readonly tail: TailRing;
  /** Newlines written to the spill file (the whole output's lines). */
  private spillLines = 0;
  /** The spill file's last line has no newline yet. */
  private openLine = false;
  private keptBytes = 0;
  private totalBytes = 0;
  private spill: WriteStream | null = null;
  /** While the file is being opened: what to write first, and the open itself. */
  private waiting: string[] | null = null;
  private opening: Promise<void> | null = null;
  private spillError: string | null = null;
  private blocked = false;
  private pendingCR = false;

  constructor(private readonly options: OutputCapOptions) {
    this.tail = new TailRing(Math.floor(options.capBytes / 2));
  }

  /** Records text; returns the part the UI may still see (all of it until the cap, then nothing). */
  push(text: string, stream: StreamName = 'stdout'): string {
    if (!text) return '';
    const bytes = Buffer.byteLength(text, 'utf8');
    this.totalBytes += bytes;
    // All of it goes by the tail (a reference kept, no copy): the tail of an output just past the cap
    // then joins its head.
    this.tail.push(text, stream, bytes);
    if (!this.spill && !this.spillError && this.keptBytes + bytes <= this.options.capBytes) {
      this.kept.push(text);
      this.keptBytes += bytes;
      return text;
    }
    let visible = '';
    if (!this.spill && !this.spillError && !this.waiting) {
      visible = prefixWithinBytes(text, this.options.capBytes - this.keptBytes);
      this.kept.push(visible);
      this.keptBytes += Buffer.byteLength(visible, 'utf8');
      this.openSpill();
      this.write(this.kept.join(''));
      this.write(text.slice(visible.length));
      return visible;
    }
    this.write(text);
    return visible;
  }

  /** How much of the kept text is the head once the output passed the cap (the tail has the rest). */
  get headBytes(): number {
    return this.options.capBytes - Math.floor(this.options.capBytes / 2);
  }

  /**
   * The latest text, up to half the cap, oldest first (read once the output passed the cap). It starts at a line's start
   * when one begins near its front (the line cut in two is left out; it is in the spill file).
   */
  tailPieces(): TailPiece[] {
    const pieces = this.tail.read();
    const first = pieces[0];
    if (first) {
      const newline = first.text.indexOf('\n');
      if (newline >= 0 && newline < LINE_START_SEARCH) first.text = first.text.slice(newline + 1);
      if (!first.text) pieces.shift();
    }
    return pieces;
  }

  /** Whether the whole output is in the spill file (it passed the cap and the file took all of it). */
  get saved(): boolean {
    return this.spill !== null && this.spillError === null;
  }

  get overflowBytes(): number {
    return this.totalBytes - this.keptBytes;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** Lines of the whole output, as the spill file has them (0 when nothing was spilled). */
  get lines(): number {
    return this.spillLines + (this.openLine ? 1 : 0);
  }

  /** The spill file's size once finished (its line ends are LF where the terminal's were CRLF). */
  get fileBytes(): number {
    return this.spill?.bytesWritten ?? 0;
  }

  get text(): string {
    const joined = this.kept.join('');
    this.kept = [joined];
    return joined;
  }

  /** Closes the spill file; returns the note for the UI and the model, or null when nothing was cut. */
  async finish(): Promise<string | null> {
    const overflow = this.overflowBytes;
    if (overflow <= 0) return null;
    await this.opening;
    const spill = this.spill;
    if (spill) {
      if (this.pendingCR) spill.write('\r');
      await new Promise<void>((resolve) => {
        spill.once('error', () => resolve());
        spill.end(() => resolve());
      });
      this.setBlocked(false);
    }
    if (this.spillError || !spill) {
      return `… ${formatBytes(overflow)} more, not saved (${this.spillError ?? 'no spill file'})`;
    }
    return `… ${formatBytes(overflow)} more, saved to ${this.options.spillPath} (the whole output, ${formatBytes(spill.bytesWritten)})`;
  }

  /** Starts opening the file; the producer is paused until it is open, so nothing piles up meanwhile. */
  private openSpill(): void {
    this.waiting = [];
    this.setBlocked(true);
    this.opening = this.open().then(
      (stream) => {
        stream.on('error', (err: Error) => {
          this.spillError = err.message;
          this.spill = null;
          this.setBlocked(false);
        });
        stream.on('drain', () => this.setBlocked(false));
        this.spill = stream;
        const first = this.waiting?.join('') ?? '';
        this.waiting = null;
        // Stays paused until the file drained what waited, if that filled its buffer.
        if (!first || stream.write(this.toFileText(first), 'utf8')) this.setBlocked(false);
      },
      (err: unknown) => {
        this.spillError = errorMessage(err);
        this.waiting = null;
        this.setBlocked(false);
      },
    );
  }

  /** The spill file, created anew (an earlier run's file of the same name is replaced, never written through). */
  private async open(): Promise<WriteStream> {
    const segments = relative(this.options.spillRoot, this.options.spillPath).split(sep);
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
    const create = () => openBeneath(this.options.spillRoot, segments, flags, { create: true, fileMode: 0o644 });
    const handle = await create().catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
      await unlinkBeneath(this.options.spillRoot, segments);
      return create();
    });
    await this.ignoredByGit(segments).catch(() => undefined);
    return handle.createWriteStream({ highWaterMark: 1024 * 1024 });
  }

  /**
   * The spill folder (`.oi/`) holds a `.gitignore` of `*`, ignoring itself and everything in it, so
   * the app's files never show in `git status` of the person's project (issue 25, item 6). Written
   * once, never through a link, and never over a file already there.
   */
  private async ignoredByGit(segments: string[]): Promise<void> {
    if (segments.length < 2) return;
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
    const handle = await openBeneath(this.options.spillRoot, [segments[0]!, '.gitignore'], flags, { create: true, fileMode: 0o644 });
    try {
      await handle.writeFile("# Open Interpreter's own files (output too long to show), kept out of git.\n*\n");
    } finally {
      await handle.close();
    }
  }

  private write(text: string): void {
    if (!text) return;
    if (this.waiting) {
      this.waiting.push(text);
      return;
    }
    if (!this.spill) return;
    if (!this.spill.write(this.toFileText(text), 'utf8')) this.setBlocked(true);
  }

  /** The file is for reading in an editor: the terminal's CRLF line ends become LF. */
  private toFileText(text: string): string {
    let t = this.pendingCR ? `\r${text}` : text;
    this.pendingCR = t.endsWith('\r');
    if (this.pendingCR) t = t.slice(0, -1);
    const out = t.includes('\r') ? t.replace(/\r\n/g, '\n') : t;
    for (let at = out.indexOf('\n'); at >= 0; at = out.indexOf('\n', at + 1)) this.spillLines++;
    if (out) this.openLine = !out.endsWith('\n');
    return out;
  }

  private setBlocked(blocked: boolean): void {
    if (this.blocked === blocked) return;
    this.blocked = blocked;
    this.options.onBackpressure(blocked);
  }
}

/** The longest prefix of text within maxBytes of UTF-8 that does not split a surrogate pair. */
export function prefixWithinBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  let end = Math.min(text.length, maxBytes);
  while (end > 0 && Buffer.byteLength(text.slice(0, end), 'utf8') > maxBytes) {
    end = Math.max(0, end - Math.max(1, Math.ceil((Buffer.byteLength(text.slice(0, end), 'utf8') - maxBytes) / 4)));
  }
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
