// The end of a run's output past the UI's cap: the latest text, up to a byte limit, each piece with
// the stream it came from. A run can print hundreds of megabytes in small chunks, so taking a chunk
// must cost next to nothing: the pieces are kept as they came (a reference, no string is built or
// measured again), whole pieces fall off the front once the rest covers the limit, and the one
// piece that only partly fits is cut when the tail is read, once, at the end of the run.

export type StreamName = 'stdout' | 'stderr';

/** Text of the tail, with its stream. */
export interface TailPiece {
  text: string;
  stream: StreamName;
}

/** Above this many dropped entries at the front, the arrays are compacted (amortised O(1) a chunk). */
const COMPACT_AFTER = 4096;

export class TailRing {
  private texts: string[] = [];
  private streams: StreamName[] = [];
  private sizes: number[] = [];
  /** Index of the oldest piece still kept. */
  private first = 0;
  /** Bytes of the pieces from `first` on. */
  private held = 0;

  constructor(private readonly limitBytes: number) {}

  /** Takes a piece of `bytes` bytes of UTF-8 (the caller measured it already). */
  push(text: string, stream: StreamName, bytes: number): void {
    if (!text || this.limitBytes <= 0) return;
    this.texts.push(text);
    this.streams.push(stream);
    this.sizes.push(bytes);
    this.held += bytes;
    // The oldest piece goes once the newer ones alone fill the limit.
    while (this.held - (this.sizes[this.first] as number) >= this.limitBytes) {
      this.held -= this.sizes[this.first] as number;
      this.texts[this.first] = '';
      this.first++;
    }
    if (this.first > COMPACT_AFTER && this.first * 2 > this.texts.length) {
      this.texts = this.texts.slice(this.first);
      this.streams = this.streams.slice(this.first);
      this.sizes = this.sizes.slice(this.first);
      this.first = 0;
    }
  }

  /** The tail, oldest first, at most the limit; neighbouring pieces of one stream joined. */
  read(): TailPiece[] {
    const out: TailPiece[] = [];
    for (let i = this.first; i < this.texts.length; i++) {
      let text = this.texts[i] as string;
      if (i === this.first && this.held > this.limitBytes)
        text = suffixWithinBytes(text, (this.sizes[i] as number) - (this.held - this.limitBytes));
      const stream = this.streams[i] as StreamName;
      const last = out.at(-1);
      if (last?.stream === stream) last.text += text;
      else if (text) out.push({ text, stream });
    }
    return out;
  }
}

/** The longest suffix of text within maxBytes of UTF-8, never starting inside a character. */
export function suffixWithinBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  let at = buf.length - maxBytes;
  // Continuation bytes (10xxxxxx) are the inside of a character.
  while (at < buf.length && ((buf[at] as number) & 0xc0) === 0x80) at++;
  return buf.subarray(at).toString('utf8');
}
