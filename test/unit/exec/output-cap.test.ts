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
