import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Conversation } from '@contract';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../src-main/core/conversations/conversation-store';

const REPO = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts the save loop and kills it with SIGKILL once it has finished `rounds` rounds of saves. */
function killDuringSaves(dataDir: string, rounds: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'support', 'save-loop.ts'), dataDir], {
      cwd: REPO,
      // tsx resolves '@contract' through the tsconfig that declares it.
      env: { ...process.env, TSX_TSCONFIG_PATH: path.join(REPO, 'tsconfig.node.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      const done = [...d.toString().matchAll(/saved (\d+)/g)].map((m) => Number(m[1]));
      if (done.some((n) => n >= rounds)) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`save loop ended by itself (${code}): ${stderr}`)),
    );
  });
}

describe('conversation files', () => {
  it.each([5, 40])('all still parse after the process is killed during a save loop (after %i rounds)', async (rounds) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-kill-'));
    dirs.push(dataDir);
    await killDuringSaves(dataDir, rounds);

    const folder = path.join(dataDir, 'conversations');
    const files = readdirSync(folder).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
    expect(files).toHaveLength(4);
    for (const file of files) {
      const conv = Conversation.parse(JSON.parse(readFileSync(path.join(folder, file), 'utf8')));
      expect(conv.items.length).toBeGreaterThanOrEqual(rounds);
    }
    // Leftover temp files from the interrupted write are never listed as conversations.
    const listed = await new ConversationStore(dataDir, () => dataDir).list();
    expect(listed.map((c) => c.title).sort()).toEqual(['loop 1', 'loop 2', 'loop 3', 'loop 4']);
  });

  it('merges saves made while one is written: each resolves once its state or a newer one is on disk, and the last stays', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-merge-'));
    dirs.push(dataDir);
    const store = new ConversationStore(dataDir, () => dataDir);
    const conv = await store.create('v0');
    const file = path.join(dataDir, 'conversations', `${conv.id}.json`);
    const onDisk = (): number => Number(Conversation.parse(JSON.parse(readFileSync(file, 'utf8'))).title.slice(1));
    // Five saves without waiting, as a turn makes them: the first is written, the others merge.
    const resolvedWith: Array<[number, number]> = [];
    const saves = [1, 2, 3, 4, 5].map((n) => {
      conv.title = `v${n}`;
      return store.save(conv).then(() => void resolvedWith.push([n, onDisk()]));
    });
    // A save's content is taken when it is called, not when it is written.
    conv.title = 'v99';
    await Promise.all(saves);
    for (const [asked, found] of resolvedWith) expect(found).toBeGreaterThanOrEqual(asked);
    expect(onDisk()).toBe(5);
    // One made after those were written is written too.
    conv.title = 'v6';
    await store.save(conv);
    expect(onDisk()).toBe(6);
    expect(readdirSync(path.join(dataDir, 'conversations')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
