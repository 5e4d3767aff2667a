import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { McpApprovalQuestion } from '@contract';

// What `oi mcp` and the desktop app say to each other over the app's local approval endpoint. Both
// directions are signed with the token from the endpoint file (HMAC-SHA256), so:
// - the app answers only a caller that read the file (only this user can: it is 0600 in the data
//   folder, which the sandbox hides), and
// - `oi mcp` trusts an answer only from the holder of the token: a program that took the port of an
//   app that died (its file left behind) cannot say "allow", since it cannot sign the nonce `oi mcp`
//   made for this question. The token itself never travels.

export const APPROVAL_PATH = '/mcp-approval';
export const MAC_HEADER = 'x-oi-approval-mac';

/** What `oi mcp` sends: the question, and a fresh nonce the answer must sign. */
export const ApprovalAsk = McpApprovalQuestion.omit({ id: true, askedAt: true });
export type ApprovalAsk = z.infer<typeof ApprovalAsk>;

export const AskBody = z.object({ nonce: z.string().regex(/^[0-9a-f]{32,128}$/), ask: ApprovalAsk }).strict();
export type AskBody = z.infer<typeof AskBody>;

/** allow: run it (once, or always for this client); deny: the person (or the client's setting) refused. */
export const AnswerBody = z.object({
  decision: z.enum(['allow', 'deny']),
  /** once / always: the person's answer; setting: the client's entry in settings answered. */
  how: z.enum(['once', 'always', 'deny', 'setting']),
  proof: z.string(),
});
export type AnswerBody = z.infer<typeof AnswerBody>;

export function mac(token: string, label: 'ask' | 'answer', text: string): string {
  return createHmac('sha256', token).update(`${label}\n${text}`).digest('hex');
}

/** Constant time for equal lengths; a MAC of another length is simply wrong. */
export function sameMac(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The text an answer's proof signs: the nonce of the question and the decision, so neither can be swapped. */
export const answerText = (nonce: string, decision: AnswerBody['decision'], how: AnswerBody['how']): string =>
  `${nonce}\n${decision}\n${how}`;
