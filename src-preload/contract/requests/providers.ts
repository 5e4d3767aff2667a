import { z } from 'zod';
import { ProviderKind } from '../settings';
import { Empty, type RequestSpec } from './shared';

// Finding a model to talk to: what the first-run screen offers and what the model picker lists.
// Detection only asks local servers on this machine; no cloud provider is contacted until the user
// picks one.

export const LocalServer = z.object({
  id: z.string(),
  /** "Ollama", "LM Studio", "Jan". */
  name: z.string(),
  provider: ProviderKind,
  baseUrl: z.string(),
  models: z.array(z.string()),
});

export const providersRequests = {
  /** Is the provider in settings usable now (a key, or a local server)? Sends nothing anywhere. */
  'providers.status': {
    input: Empty,
    output: z.object({ ready: z.boolean(), reason: z.string().nullable() }),
  },
  'providers.detect': {
    input: Empty,
    output: z.object({
      /** Providers whose key is set in the environment the app started with. */
      env: z.array(
        z.object({
          provider: ProviderKind,
          variable: z.string(),
          suggestedModels: z.array(z.string()),
          /** A hosted OpenAI-compatible service (key-services.ts): its name and endpoint. */
          service: z.object({ id: z.string(), label: z.string(), baseUrl: z.string() }).optional(),
        }),
      ),
      /** Local model servers that answered on their usual ports. */
      local: z.array(LocalServer),
    }),
  },
  /** The provider's models, asked with the saved key (a user action: this contacts the provider). */
  'providers.models': {
    input: z
      .object({
        provider: ProviderKind,
        baseUrl: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .nullable()
          .optional(),
      })
      .strict(),
    output: z.object({ models: z.array(z.string()) }),
  },
} as const satisfies Record<string, RequestSpec>;

export type LocalServer = z.infer<typeof LocalServer>;
