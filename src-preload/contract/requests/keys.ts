import { z } from 'zod';
import { type RequestSpec, Empty } from './shared';

// API keys, as the keys screen sees them. Keys go from the renderer to main (add, replace, test a
// typed key) and never back: every output describes a key by where it comes from and its last four
// characters, nothing more.

/** Providers, then the hosted OpenAI-compatible services with keys of their own (key-services.ts). */
export const KeyProvider = z.enum(['openai', 'anthropic', 'openai-compatible', 'openrouter', 'groq', 'mistral', 'deepseek']);

export const KeyStatus = z.object({
  provider: KeyProvider,
  /** Where the key the app would use comes from; null when there is none. */
  source: z.enum(['keychain', 'memory', 'env']).nullable(),
  /** Last four characters, or null when the key is too short to show any of it safely. */
  last4: z.string().max(4).nullable(),
  /** The environment variable that holds a key for this provider, when one is set. */
  envVariable: z.string().nullable(),
});

const KeyValue = z
  .string()
  .max(16_384, 'a key is at most 16,384 characters')
  .refine((v) => v.trim().length > 0, 'the key is empty');

export const KeyTestResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), models: z.array(z.string()) }),
  z.object({
    ok: z.literal(false),
    message: z.string(),
    /** What failed: the network (the key was not checked), the key, the server, or something else. */
    problem: z.enum(['network', 'key', 'server', 'other']).optional(),
  }),
]);

export const keysRequests = {
  'keys.list': {
    input: Empty,
    output: z.object({ storage: z.enum(['keychain', 'memory']), keys: z.array(KeyStatus) }),
  },
  'keys.set': {
    input: z.object({ provider: KeyProvider, key: KeyValue }).strict(),
    output: KeyStatus,
  },
  /** Removes the key saved in the app; a key from the environment stays (the app never edits it). */
  'keys.delete': {
    input: z.object({ provider: KeyProvider }).strict(),
    output: KeyStatus,
  },
  /** Lists the provider's models with the typed key, or with the saved one when no key is given. */
  'keys.test': {
    input: z
      .object({
        provider: KeyProvider,
        key: KeyValue.optional(),
        baseUrl: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .nullable()
          .optional(),
      })
      .strict(),
    output: KeyTestResult,
  },
} as const satisfies Record<string, RequestSpec>;

export type KeyProvider = z.infer<typeof KeyProvider>;
export type KeyStatus = z.infer<typeof KeyStatus>;
export type KeyTestResult = z.infer<typeof KeyTestResult>;
