import { z } from 'zod';
import type { HookRun } from './hook-process';

// What a hook's run says, in the convention people already write for other agents' hooks: exit 0 is
// "go on" (with, optionally, a JSON answer on stdout), exit 2 is "refuse", with stderr as the reason.
// Anything else — another exit code, a crash, a time-out, JSON that cannot be read — is a failure.

export type HookDecision = 'allow' | 'deny' | 'ask';

export type HookAnswer = { ok: true; decision: HookDecision; reason: string | null } | { ok: false; failure: string };

const Answer = z.object({
  decision: z.enum(['allow', 'deny', 'ask']).optional(),
  reason: z.string().max(10_000).optional(),
});

/** Characters of a reason or of stderr carried into a notice or to the model. */
export const REASON_CHARS = 2000;

export function readHookAnswer(run: HookRun, timeoutMs: number): HookAnswer {
  switch (run.kind) {
    case 'not-started':
      return { ok: false, failure: `could not be started (${run.error})` };
    case 'timeout':
      return { ok: false, failure: `did not answer within ${formatSeconds(timeoutMs)} and was stopped${tail(run.stderr)}` };
    case 'killed':
      return { ok: false, failure: `was killed by ${run.signal}${tail(run.stderr)}` };
    case 'exited':
      break;
  }
  if (run.code === 2) return { ok: true, decision: 'deny', reason: clip(run.stderr.trim()) || null };
  if (run.code !== 0) return { ok: false, failure: `exited with code ${run.code}${tail(run.stderr)}` };
  const out = run.stdout.trim();
  if (!out.startsWith('{')) return { ok: true, decision: 'allow', reason: null };
  let json: unknown;
  try {
    json = JSON.parse(out);
  } catch (err) {
    return { ok: false, failure: `answered with JSON the app cannot read (${err instanceof Error ? err.message : String(err)})` };
  }
  const parsed = Answer.safeParse(json);
  if (!parsed.success) return { ok: false, failure: `answered with JSON the app cannot read (decision must be "allow", "deny" or "ask")` };
  return { ok: true, decision: parsed.data.decision ?? 'allow', reason: parsed.data.reason ? clip(parsed.data.reason) : null };
}

function clip(text: string): string {
  return text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS)}…` : text;
}

function tail(stderr: string): string {
  const text = stderr.trim();
  return text ? `: ${clip(text.length > REASON_CHARS ? text.slice(-REASON_CHARS) : text)}` : '';
}

export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
