import { constants } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { errorMessage } from '@contract';
import { Processes, Sandbox } from '../exec';

// The file by which `oi mcp` finds the running desktop app: <data folder>/mcp-approval-endpoint.json,
// holding the app's approval endpoint (a port on 127.0.0.1), its process id and a random token.
// The app writes it owner-only when it starts and removes it when it quits.
//
// `oi mcp` follows it only when nothing but this user and the app could have written it: a plain file
// (not a link) owned by this user with no access for others, in a folder only this user can write,
// and not lying where sandboxed code can write (a workspace, a read-write extra path of the sandbox):
// the sandbox principle — nothing sandboxed code can write is followed. A file whose process is gone
// (an app that crashed) is ignored. And even a file that passes is only a pointer: the endpoint must
// still prove it holds the token (approval-wire.ts).

export const ENDPOINT_FILE = 'mcp-approval-endpoint.json';

const EndpointRecord = z.object({
  version: z.literal(1),
  pid: z.number().int().positive(),
  port: z.number().int().min(1).max(65535),
  token: z.string().min(32).max(256),
  startedAt: z.string(),
});
export type EndpointRecord = z.infer<typeof EndpointRecord>;

export const endpointFile = (dataDir: string): string => path.join(dataDir, ENDPOINT_FILE);

/** Written beside it and renamed over it, so `oi mcp` never reads half a file. */
export async function publishEndpoint(dataDir: string, record: Omit<EndpointRecord, 'version'>): Promise<void> {
  const file = endpointFile(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  await rm(temp, { force: true });
  // wx: a link or file planted at the temporary name is refused, never written through.
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(JSON.stringify({ version: 1, ...record }));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
}

/** Removes the file if it is still this app's (another instance may have replaced it since). */
export async function withdrawEndpoint(dataDir: string, token: string): Promise<void> {
  const found = await readRecord(endpointFile(dataDir)).catch(() => null);
  if (found?.token === token) await rm(endpointFile(dataDir), { force: true });
}

export type EndpointLookup = { endpoint: EndpointRecord; why: null } | { endpoint: null; why: string };

/**
 * The running app's endpoint, or why there is none to follow. `zones` are the folders sandboxed code
 * can write (writableZones of the workspace, the sandbox's read-write paths…).
 */
export async function findEndpoint(dataDir: string, zones: readonly string[]): Promise<EndpointLookup> {
  const file = endpointFile(dataDir);
  if (Sandbox.reachesInto(file, zones))
    return none(`its endpoint file ${file} lies where sandboxed code can write, so it is not followed (docs/mcp.md)`);
  let record: EndpointRecord;
  try {
    const folderProblem = await unsafeFolder(dataDir);
    if (folderProblem) return none(folderProblem);
    record = await readRecord(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return none('the desktop app is not running (it has no approval endpoint open)');
    if (code === 'ELOOP') return none(`its endpoint file ${file} is not followed: it is a symbolic link`);
    return none(`its endpoint file ${file} is not followed: ${errorMessage(err)}`);
  }
  if (!Processes.isAlive(record.pid))
    return none(`the desktop app is not running (${file} is left from process ${record.pid}, which has ended)`);
  return { endpoint: record, why: null };
}

const none = (why: string): EndpointLookup => ({ endpoint: null, why });

/** Opened without following a link, then checked on the open file itself (no swap between check and read). */
async function readRecord(file: string): Promise<EndpointRecord> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error('it is not a plain file');
    if (process.getuid) {
      if (info.uid !== process.getuid()) throw new Error(`it belongs to another user (uid ${info.uid})`);
      if ((info.mode & 0o077) !== 0)
        throw new Error(`other users can read or write it (mode ${(info.mode & 0o777).toString(8)}; the app writes it 600)`);
    }
    if (info.size > 4096) throw new Error('it is too large to be the app’s');
    const parsed = EndpointRecord.safeParse(JSON.parse(await handle.readFile('utf8')));
    if (!parsed.success) throw new Error('it is not the app’s endpoint record');
    return parsed.data;
  } catch (err) {
    if (err instanceof SyntaxError) throw new Error('it is not JSON', { cause: err });
    throw err;
  } finally {
    await handle.close();
  }
}

/** A data folder another user could write lets them swap the file: then nothing in it is trusted. */
async function unsafeFolder(dataDir: string): Promise<string | null> {
  if (!process.getuid) return null;
  const info = await stat(dataDir);
  if (info.uid !== process.getuid()) return `the data folder ${dataDir} belongs to another user (uid ${info.uid})`;
  if ((info.mode & 0o022) !== 0) return `other users can write the data folder ${dataDir} (mode ${(info.mode & 0o777).toString(8)})`;
  return null;
}
