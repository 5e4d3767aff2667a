import type { Tiktoken } from 'js-tiktoken/lite';
import type { ModelInfo } from './model-catalog';

/** Counts tokens of text the way the model will, exactly where a tokenizer is known, else estimated. */
export interface TokenCounter {
  readonly exact: boolean;
  count(text: string): number;
}

/** What an image costs in the window: both providers charge roughly this for a typical screenshot. */
export const IMAGE_TOKENS = 1500;
/** Role markers and separators each message adds around its text. */
export const MESSAGE_OVERHEAD_TOKENS = 6;

const encoders = new Map<string, Promise<Tiktoken>>();
const ready = new Map<string, TokenCounter>();
const CACHE_LIMIT = 4000;

/** The exact counter if its tokenizer is already loaded, else the estimate; never blocks. */
export function loadedTokenCounter(info: Pick<ModelInfo, 'encoding'>): TokenCounter {
  return (info.encoding && ready.get(info.encoding)) || estimatingCounter;
}

/**
 * Loads the tokenizer on first use (building the o200k encoder takes most of a second, so it happens
 * once per process and only for OpenAI-family models), and remembers counts of texts already seen —
 * history is recounted before every call, but only its newest items are new.
 */
export async function tokenCounterFor(info: Pick<ModelInfo, 'encoding'>): Promise<TokenCounter> {
  if (!info.encoding) return estimatingCounter;
  const loaded = ready.get(info.encoding);
  if (loaded) return loaded;
  let encoder = encoders.get(info.encoding);
  if (!encoder) {
    encoder = loadEncoder(info.encoding);
    encoders.set(info.encoding, encoder);
    encoder.catch(() => encoders.delete(info.encoding ?? ''));
  }
  let enc: Tiktoken;
  try {
    enc = await encoder;
  } catch {
    return estimatingCounter;
  }
  const cache = new Map<string, number>();
  const counter: TokenCounter = {
    exact: true,
    count(text) {
      if (text === '') return 0;
      const known = cache.get(text);
      if (known !== undefined) return known;
      const n = enc.encode(text, 'all').length;
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
      cache.set(text, n);
      return n;
    },
  };
  ready.set(info.encoding, counter);
  return counter;
}

async function loadEncoder(name: 'o200k_base' | 'cl100k_base'): Promise<Tiktoken> {
  const { Tiktoken } = await import('js-tiktoken/lite');
  const ranks =
    name === 'o200k_base'
      ? (await import('js-tiktoken/ranks/o200k_base')).default
      : (await import('js-tiktoken/ranks/cl100k_base')).default;
  return new Tiktoken(ranks);
}

/**
 * Without the model's tokenizer: three UTF-8 bytes a token over-counts English (about four) and code
 * slightly, which errs on the side of fitting.
 */
export const estimatingCounter: TokenCounter = {
  exact: false,
  count: (text) => Math.ceil(Buffer.byteLength(text) / 3),
};
