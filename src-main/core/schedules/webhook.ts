import { randomBytes, timingSafeEqual } from 'node:crypto';
import { lstat, mkdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write';

// The local webhook: `POST http://127.0.0.1:<port>/schedules/<id>/run` with `Authorization: Bearer
// <token>` starts a task, so a git hook or another program can. It listens on the loopback address
// only, and a request without the token, or with another, starts nothing
// (test/security/attacks/schedule-webhook.test.ts). The token is never in a URL (URLs end up in logs
// and shell history). Port and token are kept in <data folder>/schedule-webhook.json (owner-only), so a
// git hook written once keeps working after the app restarts; `oi schedule webhook` prints them.

export const WEBHOOK_FILE = 'schedule-webhook.json';
const WebhookRecord = z.object({ port: z.number().int().min(1).max(65535), token: z.string().min(32).max(256) });
export type WebhookRecord = z.infer<typeof WebhookRecord>;

export const webhookFile = (dataDir: string): string => path.join(dataDir, WEBHOOK_FILE);

/** The saved port and token, made on first use. A file that is not a plain file, or not valid, is replaced. */
export async function webhookRecord(dataDir: string): Promise<WebhookRecord> {
  const file = webhookFile(dataDir);
  const info = await lstat(file).catch(() => null);
  if (info?.isFile()) {
    const parsed = WebhookRecord.safeParse(await readFile(file, 'utf8').then(JSON.parse, () => null));
    if (parsed.success) return parsed.data;
  }
  return saveWebhookRecord(dataDir, { port: 0, token: randomBytes(32).toString('hex') });
}

async function saveWebhookRecord(dataDir: string, record: WebhookRecord): Promise<WebhookRecord> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(webhookFile(dataDir), JSON.stringify(record));
  return record;
}

/** What the webhook asks of the scheduler: start this task now (false: unknown, or a run is under way). */
export type StartTask = (id: string) => Promise<'started' | 'unknown' | 'busy'>;

/** Whether a request may start a task: the production check is `bearerToken(token)`. */
export type Authorize = (req: http.IncomingMessage) => boolean;

export function bearerToken(token: string): Authorize {
  const expected = Buffer.from(`Bearer ${token}`);
  return (req) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
}

/** The request handler, apart from the server so that a test can build the twin without the token check. */
export function webhookHandler(start: StartTask, authorize: Authorize): http.RequestListener {
  return (req, res) => {
    const reply = (status: number, body: Record<string, unknown>) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    const match = /^\/schedules\/([a-z0-9][a-z0-9-]{0,39})\/run$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match?.[1]) return reply(404, { error: 'POST /schedules/<id>/run' });
    // Checked before anything is read or looked up: without the token nothing is learnt, not even whether the task exists.
    if (!authorize(req)) return reply(401, { error: 'the Authorization header must carry the webhook token (oi schedule webhook)' });
    req.resume();
    start(match[1]).then(
      (result) =>
        result === 'started'
          ? reply(202, { started: match[1] })
          : reply(result === 'unknown' ? 404 : 409, { error: result === 'unknown' ? 'no such task' : 'a run of this task is under way' }),
      () => reply(500, { error: 'the task could not start' }),
    );
  };
}

export interface Webhook {
  /** The address it listens on: 127.0.0.1, always. */
  host: string;
  port: number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 at the saved port (a new one when it is taken, then saved). */
export async function openWebhook(dataDir: string, start: StartTask): Promise<Webhook> {
  const record = await webhookRecord(dataDir);
  const server = http.createServer(webhookHandler(start, bearerToken(record.token)));
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const port = await listen(record.port).catch(() => listen(0));
  if (port !== record.port) await saveWebhookRecord(dataDir, { ...record, port });
  return {
    host: (server.address() as AddressInfo).address,
    port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
