import { z } from 'zod';
import { Id } from '../model';
import { ConversationRef, type RequestSpec } from './shared';

// Remote Jupyter kernels: connect a conversation's language to a kernel on a Jupyter Server,
// JupyterHub or Enterprise Gateway. The token goes from the renderer to the keychain and never back.

const ServerUrl = z.url({ protocol: /^https?$/ }).max(2048);
const Token = z.string().max(4096);

export const KernelSpecInfo = z.object({
  name: z.string(),
  displayName: z.string(),
  language: z.string(),
});

export const KernelConnectionInfo = z.object({
  url: z.string(),
  kernelName: z.string(),
  displayName: z.string(),
  /** The app's language that now runs there ('python'). */
  language: z.string(),
  /** The kernel on the server, once a cell has run (null before the first run). */
  kernelId: z.string().nullable(),
});

export const kernelRequests = {
  /** Lists the kernels a server offers, checking the URL and token; a typed token is not saved. */
  'kernels.specs': {
    input: z.object({ url: ServerUrl, token: Token.nullable().optional() }).strict(),
    output: z.object({ default: z.string().nullable(), specs: z.array(KernelSpecInfo) }),
  },
  /**
   * Runs the conversation's code in this language on the server from the next cell on. A token
   * given here is saved in the keychain for the URL; without one, the saved token (or none) is used.
   */
  'kernels.connect': {
    input: z
      .object({
        conversationId: Id,
        url: ServerUrl,
        token: Token.nullable().optional(),
        kernelName: z.string().max(256).nullable().optional(),
      })
      .strict(),
    output: KernelConnectionInfo,
  },
  /** Back to local runs; the remote kernel is shut down on the next run. */
  'kernels.disconnect': { input: ConversationRef, output: z.object({ disconnected: z.boolean() }) },
  'kernels.status': { input: ConversationRef, output: KernelConnectionInfo.nullable() },
} as const satisfies Record<string, RequestSpec>;

export type KernelSpecInfo = z.infer<typeof KernelSpecInfo>;
export type KernelConnectionInfo = z.infer<typeof KernelConnectionInfo>;
