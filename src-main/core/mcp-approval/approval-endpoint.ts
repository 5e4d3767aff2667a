import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorMessage } from '@contract';
import type { McpApprovalQuestions } from './approval-questions';
import { answerText, APPROVAL_PATH, AskBody, mac, MAC_HEADER, sameMac, type AnswerBody } from './approval-wire';
import { publishEndpoint, withdrawEndpoint } from './endpoint-file';

// The desktop app's approval endpoint for `oi mcp` (the desktop app and browser mode open it; the CLI
// and `oi mcp` itself do not): 127.0.0.1 on a free port, named with a fresh token in the endpoint file.
// One POST per question, answered when the person decides; `oi mcp` closing the request (its client
// cancelled, or it stopped waiting) withdraws the question from the page.

/** Code up to 1 MB, a write's preview, and the JSON around them. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface ApprovalEndpoint {
  port: number;
  close(): Promise<void>;
}

export async function openApprovalEndpoint(dataDir: string, questions: McpApprovalQuestions): Promise<ApprovalEndpoint> {
  const token = randomBytes(32).toString('base64url');
  let port = 0;
  const server = createServer((req, res) => {
    handle(req, res, token, port, questions).catch((err: unknown) => {
      if (!res.headersSent) reply(res, 500, { error: errorMessage(err) });
      else res.end();
    });
  });
  await listen(server);
  port = (server.address() as AddressInfo).port;
  try {
    await publishEndpoint(dataDir, { pid: process.pid, port, token, startedAt: new Date().toISOString() });
  } catch (err) {
    server.close();
    throw err;
  }
  return {
    port,
    async close() {
      await withdrawEndpoint(dataDir, token).catch(() => undefined);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, token: string, port: number, questions: McpApprovalQuestions) {
  // Only a local program that read the endpoint file: never a web page (Origin), never a rebound name (Host).
  if (req.headers.host !== `127.0.0.1:${port}`) return reply(res, 403, { error: 'not this endpoint' });
  if (req.headers.origin !== undefined) return reply(res, 403, { error: 'requests from web pages are refused' });
  if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== APPROVAL_PATH)
    return reply(res, 404, { error: `POST ${APPROVAL_PATH}` });
  const raw = await readBody(req);
  if (raw === null) return reply(res, 413, { error: `the request is larger than ${MAX_BODY_BYTES} bytes` });
  const given = req.headers[MAC_HEADER];
  if (typeof given !== 'string' || !sameMac(given, mac(token, 'ask', raw))) return reply(res, 401, { error: 'not signed with the token' });
  let body: AskBody;
  try {
    body = AskBody.parse(JSON.parse(raw));
  } catch (err) {
    return reply(res, 400, { error: `not a question: ${errorMessage(err)}` });
  }
  // The caller hanging up before the answer withdraws the question.
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const verdict = await questions.ask(body.ask, gone.signal).catch(() => null);
  if (!verdict || gone.signal.aborted) return;
  const answer: AnswerBody = { ...verdict, proof: mac(token, 'answer', answerText(body.nonce, verdict.decision, verdict.how)) };
  reply(res, 200, answer);
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** The body as text, or null past the limit. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}
