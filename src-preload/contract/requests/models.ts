import { z } from 'zod';
import { TextCallDialect } from '../model';
import { ProviderKind } from '../settings';
import { type RequestSpec } from './shared';

// What the app knows about a model on a local server: how it calls tools (found by a short probe),
// its context length (asked from the server), its size — and, for Ollama, pulling a missing model.

/**
 * How a model runs code, as the capability probe found: native tool calls, tool calls written as text
 * in one of the known dialects, fenced code blocks only, or none of these.
 */
export const ModelCapability = z.object({
  mode: z.enum(['native', 'text', 'fenced', 'none']),
  dialect: TextCallDialect.optional(),
  /** When the probe ran (ISO time). */
  probedAt: z.string(),
  /** Why, in a few words ("answered without code", the server's error). */
  detail: z.string().max(500).optional(),
});

const ModelTarget = z
  .object({
    provider: ProviderKind,
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable(),
    model: z.string().min(1).max(256),
  })
  .strict();

export const ModelDescription = z.object({
  /** null: not probed yet (hosted providers are not probed: they call tools natively). */
  capability: ModelCapability.nullable(),
  /** The window the server runs the model with, when the server says; null when it does not. */
  serverContextLength: z.number().int().positive().nullable(),
  /** The window the app fits history to (settings, the server's length capped by ollamaMaxContext, or the catalog). */
  contextWindow: z.number().int().positive(),
});

export const OllamaModelEntry = z.object({ name: z.string(), sizeBytes: z.number().nonnegative().nullable() });

export const modelsRequests = {
  /** What is known about a model (the one in settings when no target is given). Sends nothing but to a local server. */
  'models.describe': {
    input: z.object({ target: ModelTarget.optional() }).strict(),
    output: ModelDescription,
  },
  /** Runs the capability probe now (one short request to the model) and remembers the answer. */
  'models.probe': {
    input: z.object({ target: ModelTarget.optional() }).strict(),
    output: ModelCapability,
  },
  /** Ollama's installed models with their sizes (GET /api/tags). */
  'ollama.list': {
    input: z
      .object({
        baseUrl: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .nullable(),
      })
      .strict(),
    output: z.object({ models: z.array(OllamaModelEntry) }),
  },
  /** Pulls a model into Ollama, with `ollama.pull-progress` events; the UI asks the user first. */
  'ollama.pull': {
    input: z
      .object({
        baseUrl: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .nullable(),
        model: z
          .string()
          .min(1)
          .max(256)
          .regex(/^[\w.:/@-]+$/, 'a model name such as qwen2.5-coder:7b'),
      })
      .strict(),
    output: z.object({ ok: z.literal(true), model: z.string() }),
  },
} as const satisfies Record<string, RequestSpec>;

export type ModelCapability = z.infer<typeof ModelCapability>;
export type ModelDescription = z.infer<typeof ModelDescription>;
export type ModelTarget = z.infer<typeof ModelTarget>;
