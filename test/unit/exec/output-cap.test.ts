import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutputCap, formatBytes } from '../../../src-main/core/exec/output/output-cap';

describe('OutputCap', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'oi-cap-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('passes everything under the cap and writes no file', async () => {
    const cap = new OutputCap({ capBytes: 100, spillPath: join(dir, 'out.log'), spillRoot: dir, onBackpressure: () => undefined });
    expect(cap.push('hello\r\n')).toBe('hello\r\n');
    expect(await cap.finish()).toBeNull();
    await expect(readFile(join(dir, 'out.log'))).rejects.toThrow();
  });

  it('cuts at the cap without splitting a character and spills the whole output', async () => {
    const path = join(dir, 'nested', 'out.log');
    const cap = new OutputCap({ capBytes: 10, spillPath: path, spillRoot: dir, onBackpressure: () => undefined });
    const visible = cap.push('12345678é€🎉') + cap.push('more\r\n') + cap.push('and more\r') + cap.push('\n');
    expect(visible).toBe('12345678é');
    expect(Buffer.byteLength(visible)).toBeLessThanOrEqual(10);
    const note = await cap.finish();
    expect(note).toMatch(new RegExp(`^… \\d+ bytes more, saved to ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(await readFile(path, 'utf8')).toBe('12345678é€🎉more\nand more\n');
  });

  it('formats sizes for people', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(200 * 1024 * 1024)).toBe('200.0 MB');
  });
});

describe('OutputCap flow control', () => {
  it('asks to pause the producer while the spill file is behind, and to resume once it drained', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oi-cap-'));
    try {
      const events: boolean[] = [];
      const cap = new OutputCap({
        capBytes: 1024,
        spillPath: join(dir, 'out.log'),
        spillRoot: dir,
        onBackpressure: (paused) => events.push(paused),
      });
      cap.push('x'.repeat(4 * 1024 * 1024));
      expect(events).toEqual([true]);
      for (let waited = 0; events.length < 2 && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      expect(events).toEqual([true, false]);
      await cap.finish();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('OutputCap head and tail (issue 12 #8)', () => {
  it('keeps the end of an output past the cap with its streams, from a line start, and counts the whole output', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oi-cap-'));
    try {
      const cap = new OutputCap({ capBytes: 1000, spillPath: join(dir, 'out.log'), spillRoot: dir, onBackpressure: () => undefined });
      for (let i = 0; i < 5000; i++) cap.push(`line ${i}\r\n`);
      cap.push('oops\r\n', 'stderr');
      cap.push('LAST\r\n');
      expect(await cap.finish()).toMatch(/saved to/);
      const tail = cap.tailPieces();
      expect(tail.map((p) => p.stream)).toEqual(['stdout', 'stderr', 'stdout']);
      expect(tail[0]?.text).toMatch(/^line \d+\r\n/);
      expect(tail.at(-2)?.text).toBe('oops\r\n');
      expect(tail.at(-1)?.text).toBe('LAST\r\n');
      expect(Buffer.byteLength(tail.map((p) => p.text).join(''))).toBeLessThanOrEqual(500);
      expect(cap.headBytes).toBe(500);
      expect(cap.saved).toBe(true);
      expect(cap.lines).toBe(5002);
      const file = await readFile(join(dir, 'out.log'), 'utf8');
      expect(cap.fileBytes).toBe(Buffer.byteLength(file));
      expect(file.endsWith('line 4999\noops\nLAST\n')).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('joins the tail to the head when the output is only just past the cap', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oi-cap-'));
    try {
      const cap = new OutputCap({ capBytes: 100, spillPath: join(dir, 'out.log'), spillRoot: dir, onBackpressure: () => undefined });
      const text = Array.from({ length: 12 }, (_, i) => `row ${String(i).padStart(3, '0')}\n`).join('');
      cap.push(text);
      await cap.finish();
      const head = cap.text.slice(0, cap.headBytes);
      const tail = cap
        .tailPieces()
        .map((p) => p.text)
        .join('');
      // 108 bytes: 50 of head, the tail from the first line start in the last 50; nothing but the cut line between.
      expect(head).toBe(text.slice(0, 50));
      expect(text.endsWith(tail)).toBe(true);
      expect(tail.startsWith('row')).toBe(true);
      expect(text.length - head.length - tail.length).toBeLessThan(9 + 8);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
