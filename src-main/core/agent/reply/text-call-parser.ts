import type { TextCallDialect } from '@contract';
import { callsInBlock, dialectOfBlock, MARKERS, type Marker, type TextCall } from '../../llm/text-call-dialects';

/**
 * Finds tool calls that a model writes as text (llm/text-call-dialects.ts) in its streamed reply, so
 * they run like native calls, while prose that merely shows a call never runs:
 *
 * - a dialect's opening marker counts only at the start of a line (or of the reply), outside fenced
 *   code blocks — an example inside ``` or quoted in a sentence stays text;
 * - a block becomes a call only if what follows the marker reads as calls naming one of our tools;
 *   anything else is given back as the text it was;
 * - a bare JSON call (no marker: Llama 3.x, or a model that just prints the JSON) counts only when it
 *   is the whole reply — optionally in one ```json fence — and is held back until that is known.
 *
 * Text that could still be a marker is held back (at most a marker's length), the rest passes at once.
 */

export type TextCallEvent =
  | { type: 'text'; text: string }
  /** The calls read so far from an open block (only once a name is known and is ours). */
  | { type: 'calls'; block: number; dialect: TextCallDialect; calls: TextCall[]; final: boolean };

type Mode =
  | { kind: 'scan' }
  | { kind: 'block'; marker: Marker; block: number; body: string; shown: string; json: JsonScan | null }
  | { kind: 'bare'; text: string; fenced: boolean | null; json: JsonScan; jsonEnd: number | null };

const MAX_MARKER = Math.max(...MARKERS.map((m) => m.text.length));

export class TextCallParser {
  private mode: Mode = { kind: 'scan' };
  /** Text at the start of a line held back because it may still become a marker. */
  private held: string | null = null;
  private atLineStart = true;
  private replyStarted = false;
  private line = '';
  private fence: string | null = null;
  private blocks = 0;

  /** @param isOurTool whether a call names a tool the request offered (others are never run). */
  constructor(private readonly isOurTool: (name: string) => boolean) {}

  feed(chunk: string): TextCallEvent[] {
    const out: TextCallEvent[] = [];
    this.consume(chunk, out);
    return merged(out);
  }

  /** The reply ended: a held candidate is decided, an open block read as it stands. */
  finish(): TextCallEvent[] {
    const out: TextCallEvent[] = [];
    const mode = this.mode;
    if (mode.kind === 'block') {
      this.mode = { kind: 'scan' };
      this.endBlock(mode, mode.body, '', out);
    } else if (mode.kind === 'bare') {
      this.mode = { kind: 'scan' };
      const calls = mode.jsonEnd !== null && bareTailOk(mode) ? this.ours(callsInBlock('json', bareJson(mode), false)) : null;
      if (calls) {
        const dialect: TextCallDialect = /"parameters"\s*:/.test(mode.text) && !/"arguments"\s*:/.test(mode.text) ? 'llama' : 'json';
        out.push({ type: 'calls', block: this.blocks++, dialect, calls, final: true });
      } else {
        this.replyStarted = true;
        this.consume(mode.text, out);
      }
    }
    if (this.held !== null) out.push({ type: 'text', text: this.held });
    this.held = null;
    return merged(out);
  }

  private consume(chunk: string, out: TextCallEvent[]): void {
    let i = 0;
    while (i < chunk.length) {
      const mode = this.mode;
      if (mode.kind === 'block') {
        i = this.feedBlock(mode, chunk, i, out);
        continue;
      }
      if (mode.kind === 'bare') {
        i = this.feedBare(mode, chunk, i, out);
        continue;
      }
      const ch = chunk[i] ?? '';
      i++;
      this.scanChar(ch, out);
    }
  }

  private scanChar(ch: string, out: TextCallEvent[]): void {
    if (!this.replyStarted && this.fence === null && (ch === '{' || ch === '[' || ch === '`')) {
      // Leading spaces belong to the candidate: shown again if it is not a call, dropped if it is.
      const pending = this.held ?? '';
      this.held = null;
      this.replyStarted = true;
      this.mode = { kind: 'bare', text: '', fenced: ch === '`' ? null : false, json: new JsonScan(), jsonEnd: null };
      this.feedBare(this.mode, pending + ch, 0, out);
      return;
    }
    if (!/\s/.test(ch)) this.replyStarted = true;
    if (this.held !== null) {
      this.held += ch;
      const candidate = this.held.trimStart();
      const marker = MARKERS.find((m) => m.text === candidate);
      if (marker) {
        this.held = null;
        this.line = '';
        this.atLineStart = false;
        this.mode = { kind: 'block', marker, block: this.blocks++, body: '', shown: '', json: null };
        return;
      }
      if (ch !== '\n' && (candidate === '' || MARKERS.some((m) => m.text.startsWith(candidate))) && this.held.length < MAX_MARKER + 16)
        return;
      const text = this.held;
      this.held = null;
      this.emitText(text, out);
      return;
    }
    if (this.atLineStart && this.fence === null && (ch === ' ' || ch === '\t' || MARKERS.some((m) => m.text.startsWith(ch)))) {
      this.held = ch;
      return;
    }
    this.emitText(ch, out);
  }

  /** Passes text on, keeping track of lines and of fenced blocks (where markers do not count). */
  private emitText(text: string, out: TextCallEvent[]): void {
    out.push({ type: 'text', text });
    for (const ch of text) {
      if (ch === '\n') {
        const m = /^ {0,3}(`{3,}|~{3,})/.exec(this.line);
        if (m?.[1]) {
          if (this.fence === null) this.fence = m[1];
          else if (m[1][0] === this.fence[0] && m[1].length >= this.fence.length && /^ {0,3}[`~]+\s*$/.test(this.line)) this.fence = null;
        }
        this.line = '';
        this.atLineStart = true;
      } else {
        this.line += ch;
        this.atLineStart = false;
      }
    }
  }

  private feedBlock(mode: Extract<Mode, { kind: 'block' }>, chunk: string, from: number, out: TextCallEvent[]): number {
    const before = mode.body.length;
    mode.body += chunk.slice(from);
    const end = this.blockEnd(mode, before);
    if (end === 'wait') return chunk.length;
    if (end) {
      const body = mode.body.slice(0, end.at);
      const rest = mode.body.slice(end.after);
      this.mode = { kind: 'scan' };
      this.endBlock(mode, body, mode.body.slice(end.at, end.after), out);
      this.consume(rest, out);
      return chunk.length;
    }
    const calls = this.ours(callsInBlock(mode.marker.dialect, mode.body, true), true);
    const snapshot = JSON.stringify(calls);
    if (calls && calls.length > 0 && snapshot !== mode.shown) {
      mode.shown = snapshot;
      out.push({ type: 'calls', block: mode.block, dialect: dialectOfBlock(mode.marker.dialect, mode.body), calls, final: false });
    }
    return chunk.length;
  }

  /**
   * Where the open block ends, if it does yet. A JSON body ends with its value — a closing tag inside
   * one of its strings is code, not the end — and a closing tag right after it is part of the block;
   * 'wait' while what follows the value could still be that tag.
   */
  private blockEnd(mode: Extract<Mode, { kind: 'block' }>, before: number): { at: number; after: number } | 'wait' | null {
    if (!mode.json) {
      const lead = /^\s*[[{]/.exec(mode.body);
      if (lead) mode.json = new JsonScan(lead[0].length - 1);
      else if (/^\s*$/.test(mode.body)) return null;
    }
    if (mode.json) {
      const done = mode.json.scan(mode.body);
      if (done === null) return null;
      const tail = mode.body.slice(done);
      const spaces = /^\s*/.exec(tail)?.[0].length ?? 0;
      const next = tail.slice(spaces);
      for (const closer of mode.marker.closers) {
        if (next.startsWith(closer)) return { at: done, after: done + spaces + closer.length };
        if (closer.startsWith(next)) return 'wait';
      }
      return mode.marker.endsWithJson || next !== '' ? { at: done, after: done } : 'wait';
    }
    // A body that is not JSON (Llama's code, Mistral's name[ARGS], DeepSeek's call list) ends at its tag;
    // a tag split over chunks is found by looking a little behind where this chunk began.
    const searchFrom = Math.max(0, before - MAX_MARKER);
    let end: { at: number; after: number } | null = null;
    for (const closer of mode.marker.closers) {
      const at = mode.body.indexOf(closer, searchFrom);
      if (at >= 0 && (!end || at < end.at)) end = { at, after: at + closer.length };
    }
    return end;
  }

  private endBlock(mode: Extract<Mode, { kind: 'block' }>, body: string, closer: string, out: TextCallEvent[]): void {
    const calls = this.ours(callsInBlock(mode.marker.dialect, body, false));
    if (calls) {
      out.push({ type: 'calls', block: mode.block, dialect: dialectOfBlock(mode.marker.dialect, body), calls, final: true });
      return;
    }
    if (mode.shown) {
      // Cells are already on screen: keep them as calls with what was written; a broken one goes back
      // to the model as an argument error, like a broken native call.
      const partial = callsInBlock(mode.marker.dialect, body, true) ?? [];
      out.push({ type: 'calls', block: mode.block, dialect: dialectOfBlock(mode.marker.dialect, body), calls: partial, final: true });
      return;
    }
    this.emitText(mode.marker.text + body + closer, out);
  }

  private feedBare(mode: Extract<Mode, { kind: 'bare' }>, chunk: string, from: number, out: TextCallEvent[]): number {
    mode.text += chunk.slice(from);
    if (mode.fenced === null) {
      const nl = mode.text.indexOf('\n');
      const first = (nl < 0 ? mode.text : mode.text.slice(0, nl)).trim();
      if (nl < 0)
        return '```json'.startsWith(first) || /^```(json)?$/.test(first) ? chunk.length : this.abandonBare(mode, out, chunk.length);
      if (!/^```(json)?$/.test(first)) return this.abandonBare(mode, out, chunk.length);
      mode.fenced = true;
      mode.json = new JsonScan(nl + 1);
    }
    if (mode.jsonEnd === null) {
      const skipped = mode.json.skipSpace(mode.text);
      if (skipped === false) return this.abandonBare(mode, out, chunk.length);
      const done = mode.json.scan(mode.text);
      if (done !== null) {
        mode.jsonEnd = done;
        if (!this.ours(callsInBlock('json', bareJson(mode), false))) return this.abandonBare(mode, out, chunk.length);
      }
    }
    if (mode.jsonEnd !== null && !bareTailOk(mode, true)) return this.abandonBare(mode, out, chunk.length);
    return chunk.length;
  }

  private abandonBare(mode: Extract<Mode, { kind: 'bare' }>, out: TextCallEvent[], consumed: number): number {
    this.mode = { kind: 'scan' };
    this.replyStarted = true;
    this.consume(mode.text, out);
    return consumed;
  }

  /** Only calls naming our tools; with `partial`, the calls before the first foreign one. */
  private ours(calls: TextCall[] | null, partial = false): TextCall[] | null {
    if (!calls) return null;
    const foreign = calls.findIndex((c) => !this.isOurTool(c.name));
    if (partial) return foreign < 0 ? calls : calls.slice(0, foreign);
    return foreign < 0 && calls.length > 0 ? calls : null;
  }
}

function bareJson(mode: Extract<Mode, { kind: 'bare' }>): string {
  return mode.text.slice(mode.json.start, mode.jsonEnd ?? undefined);
}

/** After the JSON value only spaces may follow (and, in a fence, its closing line); `open`: more may come. */
function bareTailOk(mode: Extract<Mode, { kind: 'bare' }>, open = false): boolean {
  const tail = mode.text.slice(mode.jsonEnd ?? mode.text.length);
  if (!mode.fenced) return /^\s*$/.test(tail);
  if (open && /^\s*`{0,3}\s*$/.test(tail)) return true;
  return /^\s*```\s*$/.test(tail);
}

/** Merges adjacent text events, so callers see few, larger pieces. */
function merged(events: TextCallEvent[]): TextCallEvent[] {
  const out: TextCallEvent[] = [];
  for (const ev of events) {
    const last = out.at(-1);
    if (ev.type === 'text' && last?.type === 'text') last.text += ev.text;
    else if (ev.type !== 'text' || ev.text) out.push(ev.type === 'text' ? { ...ev } : ev);
  }
  return out;
}

/**
 * Finds where a JSON value that starts at `start` ends, incrementally over a growing text: depth of
 * brackets, strings and their escapes. It does not validate; the caller parses the value afterwards.
 */
class JsonScan {
  private at: number;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private begun = false;

  constructor(readonly start = 0) {
    this.at = start;
  }

  /** Skips spaces before the value; false when something other than a value's start comes first. */
  skipSpace(text: string): boolean | null {
    if (this.begun) return true;
    while (this.at < text.length && /\s/.test(text[this.at] ?? '')) this.at++;
    if (this.at >= text.length) return null;
    const ch = text[this.at];
    return ch === '{' || ch === '[';
  }

  /** The index just past the value once it is complete, else null. */
  scan(text: string): number | null {
    if (!this.begun) {
      while (this.at < text.length && /\s/.test(text[this.at] ?? '')) this.at++;
      if (this.at >= text.length) return null;
    }
    for (; this.at < text.length; this.at++) {
      const ch = text[this.at];
      this.begun = true;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (ch === '\\') this.escaped = true;
        else if (ch === '"') this.inString = false;
        continue;
      }
      if (ch === '"') this.inString = true;
      else if (ch === '{' || ch === '[') this.depth++;
      else if (ch === '}' || ch === ']') {
        this.depth--;
        if (this.depth === 0) return ++this.at;
      }
    }
    return null;
  }
}
