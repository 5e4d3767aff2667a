import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Conversation } from '@contract';
import { afterEach, describe, expect, it } from 'vitest';
import { AHEAD_BYTES, applyJournal, ConversationJournal, journalText } from '../../../src-main/core/conversations/conversation-journal';
import { ConversationStore } from '../../../src-main/core/conversations/conversation-store';
import { newCell } from '../../../src-main/core/conversations/new-cell';

// oi mcp's runs are journalled (conversation-journal.ts): each is on disk before the client reads its
// result, one fdatasync, and the whole file is written later. These hold what that must keep.

const REPO = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-journal-'));
  dirs.push(dir);
  return dir;
}

const cell = (n: number) =>
  newCell({ id: `c${n}`, step: `s${n}`, toolCallId: null, language: 'python', code: `print(${n})`, status: 'done' });

/** The conversation's file alone, as it is on disk, without its journal. */
const fileAlone = (dir: string, id: string) =>
  Conversation.parse(JSON.parse(readFileSync(path.join(dir, 'conversations', `${id}.json`), 'utf8')));

/** A process that journals `n` cells, reports it, and is then killed with SIGKILL: returns the conversation's id. */
function journalThenKill(dir: string, n: number, how: 'add' | 'record' = 'add'): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'support', 'journal-then-wait.ts'), dir, String(n), how],
      { cwd: REPO, env: { ...process.env, TSX_TSCONFIG_PATH: path.join(REPO, 'tsconfig.node.json') }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    let id = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const done = /added \d+ (\S+)\n/.exec(out);
      if (done?.[1] && !id) {
        id = done[1];
        child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' && id ? resolve(id) : reject(new Error(`ended by itself (${code}): ${err}`))));
  });
}

/** A conversation store in a fresh data folder. */
function freshStore(): { dir: string; store: ConversationStore } {
  const dir = dataDir();
  return { dir, store: new ConversationStore(dir, () => dir) };
}

/** A new conversation and its journal, which writes the file whole once nothing was added for `compactIdleMs`. */
async function journalled(store: ConversationStore, title: string, compactIdleMs: number) {
  const conv = await store.create(title);
  return { conv, journal: new ConversationJournal(store, conv, { compactIdleMs }) };
}

describe('conversation journal', () => {
  it('keeps every journalled cell through a SIGKILL right after it was added: the store reads them from the journal', async () => {
    const dir = dataDir();
    const id = await journalThenKill(dir, 12);
    const read = await new ConversationStore(dir, () => dir).get(id);
    expect(read.items.map((i) => i.id)).toEqual(Array.from({ length: 12 }, (_, i) => `c${i + 1}`));
    // The lines were written over zeros written ahead of them, which the kill left in the file.
    const journal = readFileSync(new ConversationStore(dir, () => dir).journalOf(id), 'utf8');
    expect(journal.length).toBeGreaterThan(journalText(journal).length);
    // Twin: the whole file was not written again after the first save, so without the journal all twelve are gone.
    expect(fileAlone(dir, id).items).toEqual([]);
    // Listed too, with the journal's items (a conversation with none is not listed).
    expect((await new ConversationStore(dir, () => dir).list()).map((c) => c.id)).toEqual([id]);
  });

  it('writes the file whole and empties the journal once still, and removes it at close', async () => {
    const { dir, store } = freshStore();
    const { conv, journal } = await journalled(store, 'still', 1);
    for (const n of [1, 2, 3]) {
      conv.items.push(cell(n));
      await journal.add(cell(n));
    }
    await expect.poll(() => fileAlone(dir, conv.id).items.length, { timeout: 30_000 }).toBe(3);
    await expect.poll(() => readFileSync(store.journalOf(conv.id), 'utf8'), { timeout: 30_000 }).toBe('');
    conv.items.push(cell(4));
    await journal.add(cell(4));
    await journal.close();
    expect(fileAlone(dir, conv.id).items).toHaveLength(4);
    expect(existsSync(store.journalOf(conv.id))).toBe(false);
  });

  it('skips a torn last line and a journal that would not make a valid conversation', async () => {
    const { dir, store } = freshStore();
    const conv = await store.create('torn');
    const journal = new ConversationJournal(store, conv, { compactIdleMs: 3_600_000 });
    conv.items.push(cell(1));
    await journal.add(cell(1));
    // A crash in the middle of an append leaves part of a line, in the zeros written ahead of it.
    const text = readFileSync(store.journalOf(conv.id), 'utf8');
    const end = journalText(text).length;
    writeFileSync(store.journalOf(conv.id), `${text.slice(0, end)}{"item":{"kind":"cell","id":"c2"${text.slice(end + 32)}`);
    expect(statSync(store.journalOf(conv.id)).size).toBe(text.length);
    expect((await new ConversationStore(dir, () => dir).get(conv.id)).items.map((i) => i.id)).toEqual(['c1']);
    // And at the end of a file without zeros.
    writeFileSync(store.journalOf(conv.id), journalText(text));
    appendFileSync(store.journalOf(conv.id), '{"item":{"kind":"cell","id":"c2"');
    expect((await new ConversationStore(dir, () => dir).get(conv.id)).items.map((i) => i.id)).toEqual(['c1']);
    // A whole line whose item the schema refuses: the file alone counts, and the conversation still opens.
    writeFileSync(store.journalOf(conv.id), `${JSON.stringify({ item: { kind: 'cell', id: 'bad' }, updatedAt: conv.updatedAt })}\n`);
    expect((await new ConversationStore(dir, () => dir).get(conv.id)).items).toEqual([]);
  });

  it('removes a journal left by an ended writer once the conversation is saved, so it cannot bring back what was removed since', async () => {
    const dir = dataDir();
    const id = await journalThenKill(dir, 3);
    const store = new ConversationStore(dir, () => dir);
    const recovered = await store.get(id);
    expect(recovered.items).toHaveLength(3);
    const journalText = readFileSync(store.journalOf(id), 'utf8');
    // The person removes a cell in the app, which saves the conversation whole.
    recovered.items.pop();
    await store.save(recovered);
    expect(existsSync(store.journalOf(id))).toBe(false);
    expect((await new ConversationStore(dir, () => dir).get(id)).items.map((i) => i.id)).toEqual(['c1', 'c2']);
    // Twin: had the journal stayed, reading it would bring the removed cell back.
    writeFileSync(store.journalOf(id), journalText);
    expect((await new ConversationStore(dir, () => dir).get(id)).items.map((i) => i.id)).toEqual(['c1', 'c2', 'c3']);
  });

  it('keeps a cell journalled after another process wrote the conversation whole and removed the journal', async () => {
    const dir = dataDir();
    const store = new ConversationStore(dir, () => dir);
    const conv = await store.create('two writers');
    const journal = new ConversationJournal(store, conv, { compactIdleMs: 3_600_000 });
    conv.items.push(cell(1));
    await journal.add(cell(1));
    // The desktop app opens the conversation (journal applied), renames it and saves it whole, which removes the journal.
    const app = new ConversationStore(dir, () => dir);
    const seen = await app.get(conv.id);
    await app.save({ ...seen, title: 'renamed in the app' });
    expect(existsSync(store.journalOf(conv.id))).toBe(false);
    // `oi` goes on: its next cell must be where readers look before it answers, as if it crashed now.
    conv.items.push(cell(2));
    await journal.add(cell(2));
    expect((await new ConversationStore(dir, () => dir).get(conv.id)).items.map((i) => i.id)).toEqual(['c1', 'c2']);
    // Twin: the line itself went to the removed journal, so no journal at the path holds it; the whole write does.
    expect(existsSync(store.journalOf(conv.id)) ? readFileSync(store.journalOf(conv.id), 'utf8') : '').not.toContain('"c2"');
    expect(fileAlone(dir, conv.id).items.map((i) => i.id)).toEqual(['c1', 'c2']);
    // And journalling resumes in a new file.
    conv.items.push(cell(3));
    await journal.add(cell(3));
    expect(readFileSync(store.journalOf(conv.id), 'utf8')).toContain('"c3"');
    await journal.close();
  });

  it("keeps every state a turn's saves recorded through a SIGKILL: cells changed in place and the usage, from one line a save", async () => {
    const dir = dataDir();
    const id = await journalThenKill(dir, 8, 'record');
    const read = await new ConversationStore(dir, () => dir).get(id);
    expect(read.items.map((i) => [i.id, i.kind === 'cell' ? i.status : ''])).toEqual(
      Array.from({ length: 8 }, (_, i) => [`c${i + 1}`, 'done']),
    );
    expect(read.usage.inputTokens).toBe(80);
    // One line a save after the first, which was written whole.
    expect(
      journalText(readFileSync(new ConversationStore(dir, () => dir).journalOf(id), 'utf8'))
        .trim()
        .split('\n'),
    ).toHaveLength(15);
    // Twin: the file alone holds only that first save (the first cell, still running, no usage).
    const alone = fileAlone(dir, id);
    expect(alone.items.map((i) => (i.kind === 'cell' ? i.status : ''))).toEqual(['running']);
    expect(alone.usage.inputTokens).toBe(0);
  });

  it('writes a save that removed an item whole and empties the journal, so no line brings the item back', async () => {
    const { dir, store } = freshStore();
    const { conv, journal } = await journalled(store, 'removal', 3_600_000);
    for (const n of [1, 2, 3]) {
      conv.items.push(cell(n));
      await store.save(conv);
    }
    const lines = readFileSync(store.journalOf(conv.id), 'utf8');
    expect(journalText(lines).trim().split('\n')).toHaveLength(2);
    conv.items.splice(1, 1);
    await store.save(conv);
    expect(readFileSync(store.journalOf(conv.id), 'utf8')).toBe('');
    expect((await new ConversationStore(dir, () => dir).get(conv.id)).items.map((i) => i.id)).toEqual(['c1', 'c3']);
    // Twin: had the journal kept its lines, reading would bring the removed cell back.
    writeFileSync(store.journalOf(conv.id), lines);
    expect((await new ConversationStore(dir, () => dir).get(conv.id)).items.map((i) => i.id)).toEqual(['c1', 'c3', 'c2']);
    await journal.close();
    expect(existsSync(store.journalOf(conv.id))).toBe(false);
    expect(fileAlone(dir, conv.id).items.map((i) => i.id)).toEqual(['c1', 'c3']);
  });
  it('writes each line over zeros written ahead of it, so a line grows nothing and its fdatasync commits no new size', async () => {
    const { dir, store } = freshStore();
    const { conv, journal } = await journalled(store, 'ahead', 3_600_000);
    conv.items.push(cell(1));
    await journal.add(cell(1));
    const size = statSync(store.journalOf(conv.id)).size;
    const first = journalText(readFileSync(store.journalOf(conv.id), 'utf8')).length;
    expect(size).toBe(first + AHEAD_BYTES);
    for (const n of [2, 3, 4, 5]) {
      conv.items.push(cell(n));
      await journal.add(cell(n));
      expect(statSync(store.journalOf(conv.id)).size).toBe(size);
    }
    expect((await new ConversationStore(dir, () => dir).get(conv.id)).items.map((i) => i.id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    // Twin: a line longer than the zeros left grows the file, by itself and the next zeros.
    const big = { ...cell(6), code: 'x'.repeat(AHEAD_BYTES) };
    conv.items.push(big);
    await journal.add(big);
    const used = journalText(readFileSync(store.journalOf(conv.id), 'utf8')).length;
    expect(used).toBeGreaterThan(size);
    expect(statSync(store.journalOf(conv.id)).size).toBe(used + AHEAD_BYTES);
    expect((await new ConversationStore(dir, () => dir).get(conv.id)).items.map((i) => i.id)).toHaveLength(6);
    await journal.close();
    expect(existsSync(store.journalOf(conv.id))).toBe(false);
  });

  it('puts its lines after a journal an ended writer left (lines, a torn line, zeros), where readers find them all', async () => {
    const { dir, store } = freshStore();
    const conv = await store.create('left behind');
    const line = (n: number) => `${JSON.stringify({ item: cell(n), updatedAt: conv.updatedAt })}\n`;
    // What a writer killed mid-append leaves: a whole line, part of the next, and the zeros written ahead.
    writeFileSync(store.journalOf(conv.id), `${line(1)}${line(2).slice(0, 40)}${'\0'.repeat(1000)}`);
    const journal = new ConversationJournal(store, conv, { compactIdleMs: 3_600_000 });
    conv.items.push(cell(1), cell(3));
    await journal.add(cell(3));
    const text = readFileSync(store.journalOf(conv.id), 'utf8');
    expect(text.startsWith(`${line(1)}${line(2).slice(0, 40)}\n`)).toBe(true);
    expect((await new ConversationStore(dir, () => dir).get(conv.id)).items.map((i) => i.id)).toEqual(['c1', 'c3']);
    // Twin: written at the first zero with no line end first, the new line would join the torn one, and be lost.
    const joined = `${line(1)}${line(2).slice(0, 40)}${line(3)}`;
    const raw = JSON.parse(readFileSync(path.join(dir, 'conversations', `${conv.id}.json`), 'utf8')) as unknown;
    expect((applyJournal(raw, joined) as { items: { id: string }[] }).items.map((i) => i.id)).toEqual(['c1']);
    await journal.close();
  });
});
