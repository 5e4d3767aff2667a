import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confine } from '../../../src-main/core/workspace/confine';
import { listTree } from '../../../src-main/core/workspace/workspace-tree';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';
import { startSwapper } from './support/swapper';

// Issue 17, finding 6: code in the workspace swaps a folder for a link to outside, atomically and
// again and again (renameat2 RENAME_EXCHANGE), while the app serves requests naming a path through
// that folder. Not one byte, name or change may come from or reach outside. Bounded (a fixed number of
// requests), never timed; the twin shows the same race beats the old check-then-open within its bound.

const ROUNDS = 300;

describe('attack: folder swapped for a link while the app reads, lists, renames, deletes and attaches', () => {
  let aut: AppUnderTest;
  let conversationId: string;
  let ws: string;
  let outside: string;
  const secret = `OUTSIDE-SECRET-${randomBytes(8).toString('hex')}`;
  const inside = 'inside the workspace\n'.repeat(50);
  const ctx = { transport: 'websocket' } as const;

  beforeAll(async () => {
    aut = await startAppUnderTest();
    const conv = await aut.app.handlers['conversation.create']({}, ctx);
    conversationId = conv.id;
    ws = conv.workspace;
    outside = path.join(aut.dataDir, 'outside');
    mkdirSync(path.join(ws, 'sub'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    // The same names inside and outside, so a followed link would find what it looks for.
    writeFileSync(path.join(ws, 'sub', 'data.txt'), inside);
    writeFileSync(path.join(outside, 'data.txt'), secret);
    writeFileSync(path.join(outside, `only-outside-${secret}.txt`), secret);
    for (let i = 0; i < ROUNDS; i++) {
      for (const name of [`victim-${i}.txt`, `move-${i}.txt`]) {
        writeFileSync(path.join(ws, 'sub', name), inside);
        writeFileSync(path.join(outside, name), secret);
      }
    }
    symlinkSync(outside, path.join(ws, 'swap'), 'dir');
  });
  afterAll(async () => aut?.close());

  it('downloads and previews return only workspace bytes, and the tree lists no outside name', async () => {
    const cookie = `${aut.server.cookieName}=${aut.server.token}`;
    const swapper = await startSwapper(path.join(ws, 'sub'), path.join(ws, 'swap'));
    const seen = { served: 0, refused: 0 };
    // The swapper's count sampled every 10 rounds: each sample must be above the one before, so the
    // race ran throughout the requests, not only before the first or after the last.
    const counts = [await swapper.count()];
    try {
      for (let i = 0; i < ROUNDS; i++) {
        for (const name of ['sub/data.txt', 'swap/data.txt']) {
          const res = await fetch(`${aut.server.url}/files/${conversationId}/${name}`, { headers: { cookie } });
          const body = await res.text();
          expect(body).not.toContain('OUTSIDE-SECRET');
          if (res.status === 200) {
            expect(body).toBe(inside);
            seen.served++;
          } else {
            expect([403, 404], body).toContain(res.status);
            seen.refused++;
          }
          const preview = await aut.app.handlers['workspace.preview']({ conversationId, path: name }, ctx).catch((err: Error) => err);
          expect(JSON.stringify(preview instanceof Error ? preview.message : preview)).not.toContain('OUTSIDE-SECRET');
        }
        if (i % 10 === 0) {
          // listTree itself: the handler also starts the workspace watcher, whose recursive fs.watch
          // would spend this test re-scanning the folder on every one of the swapper's renames.
          const tree = await listTree(ws);
          expect(tree.entries.map((e) => e.path).join('\n')).not.toContain('OUTSIDE-SECRET');
        }
        if (i % 10 === 9) counts.push(await swapper.count());
      }
    } finally {
      expect(await swapper.stop()).toBeGreaterThan(ROUNDS);
    }
    expect(seen.served + seen.refused).toBe(ROUNDS * 2);
    // Both outcomes happened: requests met the real folder (served its bytes) and the link (refused).
    // All refused would also pass the checks above while proving nothing about serving under the race.
    expect(seen.served, 'requests served from the real folder').toBeGreaterThan(0);
    expect(seen.refused, 'requests refused through the link').toBeGreaterThan(0);
    expect(counts).toHaveLength(ROUNDS / 10 + 1);
    for (let k = 1; k < counts.length; k++) expect(counts[k], `swaps between samples ${k - 1} and ${k}`).toBeGreaterThan(counts[k - 1]!);
  });

  it('rename and delete never act on the outside folder', async () => {
    const swapper = await startSwapper(path.join(ws, 'sub'), path.join(ws, 'swap'));
    try {
      for (let i = 0; i < ROUNDS; i++) {
        await aut.app.handlers['workspace.delete']({ conversationId, path: `sub/victim-${i}.txt` }, ctx).catch(() => null);
        await aut.app.handlers['workspace.rename']({ conversationId, from: `sub/move-${i}.txt`, to: `moved-${i}.txt` }, ctx).catch(
          () => null,
        );
      }
    } finally {
      await swapper.stop();
    }
    for (let i = 0; i < ROUNDS; i++) {
      expect(readFileSync(path.join(outside, `victim-${i}.txt`), 'utf8')).toBe(secret);
      expect(readFileSync(path.join(outside, `move-${i}.txt`), 'utf8')).toBe(secret);
      const moved = path.join(ws, `moved-${i}.txt`);
      if (existsSync(moved)) expect(readFileSync(moved, 'utf8')).toBe(inside);
    }
  });

  it('attachments are never written through attachments/ swapped for a link', async () => {
    const elsewhere = path.join(aut.dataDir, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(path.join(ws, 'attachments'), { recursive: true });
    symlinkSync(elsewhere, path.join(ws, 'attachments-link'), 'dir');
    const swapper = await startSwapper(path.join(ws, 'attachments'), path.join(ws, 'attachments-link'));
    try {
      for (let i = 0; i < ROUNDS; i++) {
        await aut.app.handlers['workspace.attach'](
          { conversationId, name: `note-${i}.txt`, mime: 'text/plain', dataBase64: Buffer.from('x').toString('base64') },
          ctx,
        ).catch(() => null);
      }
    } finally {
      await swapper.stop();
    }
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('twin: the old way (confine the path, then open it) returns the outside file within the bound', async () => {
    const swapper = await startSwapper(path.join(ws, 'sub'), path.join(ws, 'swap'));
    let leakedAfter = 0;
    try {
      for (let i = 1; i <= ROUNDS * 10 && leakedAfter === 0; i++) {
        const text = await confine(ws, 'sub/data.txt', { followFinal: true })
          .then((abs) => readFile(abs, 'utf8'))
          .catch(() => '');
        if (text.includes('OUTSIDE-SECRET')) leakedAfter = i;
      }
    } finally {
      await swapper.stop();
    }
    expect(leakedAfter, 'the race never won against confine-then-open').toBeGreaterThan(0);
  });
});
