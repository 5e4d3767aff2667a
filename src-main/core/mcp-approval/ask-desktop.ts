import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { errorMessage } from '@contract';
import { AnswerBody, answerText, APPROVAL_PATH, mac, MAC_HEADER, sameMac, type ApprovalAsk } from './approval-wire';
import { findEndpoint, type EndpointRecord } from './endpoint-file';

// `oi mcp` asking the desktop app: find its endpoint (endpoint-file.ts says what is followed), send the
// question signed with the token and a fresh nonce, and believe the answer only if it signs that nonce.
// No app, an app that does not answer in time, or an endpoint that cannot prove it is the app: the
// call is refused, with the reason.

export type DesktopAnswer =
  { allowed: true; how: AnswerBody['how'] } | { allowed: false; reason: 'denied' | 'unavailable' | 'timeout' | 'cancelled'; why: string };

export interface AskDesktopOptions {
  dataDir: string;
  /** The folders sandboxed code can write, read when asking (settings may have changed). */
  zones: () => readonly string[];
  /** How long the person has to answer. */
  timeoutMs: number;
}

export async function askDesktopApp(opts: AskDesktopOptions, ask: ApprovalAsk, signal?: AbortSignal): Promise<DesktopAnswer> {
  const found = await findEndpoint(opts.dataDir, opts.zones());
  if (!found.endpoint) return { allowed: false, reason: 'unavailable', why: found.why };
  const endpoint = found.endpoint;
  const nonce = randomBytes(32).toString('hex');
  const raw = JSON.stringify({ nonce, ask });
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  let answer: { status: number; text: string };
  try {
    answer = await post(endpoint, raw, mac(endpoint.token, 'ask', raw), signal ? AbortSignal.any([signal, timeout]) : timeout);
  } catch (err) {
    if (signal?.aborted)
      return { allowed: false, reason: 'cancelled', why: 'the client cancelled the call while the desktop app was asking' };
    if (timeout.aborted)
      return { allowed: false, reason: 'timeout', why: `nobody answered in the desktop app within ${Math.round(opts.timeoutMs / 1000)} s` };
    return {
      allowed: false,
      reason: 'unavailable',
      why: `the desktop app could not be reached at 127.0.0.1:${endpoint.port} (${errorMessage(err)})`,
    };
  }
  return verify(answer, endpoint, nonce);
}

/** The answer, believed only when it signs this question's nonce with the token. */
export function verify(answer: { status: number; text: string }, endpoint: EndpointRecord, nonce: string): DesktopAnswer {
  const at = `127.0.0.1:${endpoint.port}`;
  if (answer.status !== 200)
    return { allowed: false, reason: 'unavailable', why: `the endpoint at ${at} refused the question (HTTP ${answer.status})` };
  const parsed = parseAnswer(answer.text);
  if (!parsed || !sameMac(parsed.proof, mac(endpoint.token, 'answer', answerText(nonce, parsed.decision, parsed.how))))
    return {
      allowed: false,
      reason: 'unavailable',
      why: `the endpoint at ${at} did not prove it is the desktop app (its answer is not signed with the app's token), so its answer is not trusted`,
    };
  if (parsed.decision === 'allow') return { allowed: true, how: parsed.how };
  return {
    allowed: false,
    reason: 'denied',
    why: parsed.how === 'setting' ? "the desktop app's settings refuse this client" : 'the person at the desktop app declined',
  };
}

/** An answer's shape, unverified (the attack tests show what trusting it alone would do). */
export function parseAnswer(text: string): AnswerBody | null {
  try {
    const parsed = AnswerBody.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** node:http rather than fetch: no client-side time limit but ours (the person may take a while). */
function post(endpoint: EndpointRecord, body: string, signature: string, signal: AbortSignal): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: endpoint.port,
        path: APPROVAL_PATH,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), [MAC_HEADER]: signature },
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          // An answer is a few hundred bytes: anything more is not the app.
          if (size > 64 * 1024) return res.destroy(new Error('the answer is too large'));
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
