import type { CellOutput } from '@contract';

// A key the app holds never appears in what a run gives back: the terminal text the UI shows, the
// spill file, the saved outputs, the text the model reads. Code cannot get the keys from its
// environment (process/env.ts), but it can still print one it finds elsewhere — a .env file, a
// config, the keychain when unsandboxed — and that text would go on to the conversation file, the
// model provider and exports. Each occurrence becomes `[redacted: openai key]`.

export interface KnownSecret {
  value: string;
  /** What the key is, for the redaction mark: 'openai key', 'Jupyter token'. */
  label: string;
}

/** The keys from an engine's options: labelled ones, and bare values (labelled just 'key'). */
export function knownSecrets(labelled?: () => readonly KnownSecret[], values?: () => readonly string[]): KnownSecret[] {
  return [...(labelled?.() ?? []), ...(values?.() ?? []).map((value) => ({ value, label: 'key' }))];
}

/** Shorter values are not treated as keys: replacing them would mangle ordinary text. */
const MIN_SECRET_LENGTH = 8;

export class SecretRedactor {
  private readonly secrets: KnownSecret[];
  private held = '';

  constructor(secrets: readonly KnownSecret[]) {
    const seen = new Set<string>();
    this.secrets = secrets
      .map((s) => ({ value: s.value.trim(), label: s.label }))
      .filter((s) => s.value.length >= MIN_SECRET_LENGTH && !seen.has(s.value) && seen.add(s.value))
      // Longest first, so a key is replaced before any shorter key inside it.
      .sort((a, b) => b.value.length - a.value.length);
  }

  get empty(): boolean {
    return this.secrets.length === 0;
  }

  /** `text` with every whole key replaced. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) if (out.includes(secret.value)) out = out.split(secret.value).join(`[redacted: ${secret.label}]`);
    return out;
  }

  /**
   * Streaming: the text that is safe to pass on now. A key can arrive split over two chunks, so an
   * end of the text that could be the start of a key is held back until the next chunk (or flush()).
   */
  push(chunk: string): string {
    if (this.empty) return chunk;
    const text = this.redact(this.held + chunk);
    const keep = this.startOfKeyAtEnd(text);
    this.held = text.slice(text.length - keep);
    return text.slice(0, text.length - keep);
  }

  /** What is still held back (it was not a whole key). */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }

  /** The length of the longest end of `text` that is a proper beginning of some key. */
  private startOfKeyAtEnd(text: string): number {
    let longest = 0;
    for (const { value } of this.secrets) {
      for (let length = Math.min(value.length - 1, text.length); length > longest; length--) {
        if (text.endsWith(value.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }
}

/** An output with every string in it redacted (text, data of every MIME type, tracebacks). */
export function redactOutput(output: CellOutput, redactor: SecretRedactor): CellOutput {
  if (redactor.empty) return output;
  return deepRedactValue(output, redactor) as CellOutput;
}

/** Every string inside a JSON value, redacted (a copy). */
export function deepRedactValue(value: unknown, redactor: SecretRedactor): unknown {
  if (typeof value === 'string') return redactor.redact(value);
  if (Array.isArray(value)) return value.map((v) => deepRedactValue(v, redactor));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepRedactValue(v, redactor)]));
  }
  return value;
}
