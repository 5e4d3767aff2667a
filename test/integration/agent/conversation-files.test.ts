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
});
