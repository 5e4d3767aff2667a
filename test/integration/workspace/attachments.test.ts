import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_ATTACHMENT_BYTES } from '@contract';
import { describe, expect, it } from 'vitest';
import { copyAttachmentFrom, safeFileName, saveAttachmentBytes } from '../../../src-main/core/workspace/attachments';
import { useTempWorkspace } from './support/temp-workspace';

describe('attachments', () => {
  const ws = useTempWorkspace();

  it('writes bytes under attachments/ and never replaces an earlier one', async () => {
    const first = await saveAttachmentBytes(ws.root, 'notes.txt', 'text/plain', Buffer.from('one'));
    const second = await saveAttachmentBytes(ws.root, 'notes.txt', 'text/plain', Buffer.from('two'));
    expect(first).toEqual({ path: 'attachments/notes.txt', name: 'notes.txt', mime: 'text/plain', size: 3 });
    expect(second.path).toBe('attachments/notes (2).txt');
    expect(readFileSync(path.join(ws.root, 'attachments', 'notes.txt'), 'utf8')).toBe('one');
  });

  it('copies a dropped file by path and leaves the original untouched', async () => {
    const original = path.join(ws.outside, 'data.csv');
    writeFileSync(original, 'a,b\n1,2\n');
    const before = statSync(original);
    const att = await copyAttachmentFrom(ws.root, original);
    expect(att).toMatchObject({ path: 'attachments/data.csv', mime: 'text/csv', size: 8 });
    expect(readFileSync(original, 'utf8')).toBe('a,b\n1,2\n');
    expect(statSync(original).mtimeMs).toBe(before.mtimeMs);
  });

  it('refuses files over the limit with the size and the limit in the message', async () => {
    await expect(saveAttachmentBytes(ws.root, 'huge.bin', '', new Uint8Array(MAX_ATTACHMENT_BYTES + 1))).rejects.toThrow(/at most 16 MB/);
  });

  it('makes hostile names harmless', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Users\\me\\photo.jpg')).toBe('photo.jpg');
    expect(safeFileName('con.txt')).toBe('_con.txt');
    expect(safeFileName('...')).toBe('attachment');
    expect(safeFileName('a\u0000b?.png')).toBe('a_b_.png');
  });

  it('does not write through an attachments/ symlink that leads outside', async () => {
    symlinkSync(ws.outside, path.join(ws.root, 'attachments'), 'dir');
    await expect(saveAttachmentBytes(ws.root, 'x.txt', 'text/plain', Buffer.from('x'))).rejects.toThrow(/outside the workspace/);
  });
});
