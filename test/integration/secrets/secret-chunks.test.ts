import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  chunkAccount,
  defaultChunkSize,
  encodeManifest,
  MANIFEST_PREFIX,
  needsChunking,
  parseManifest,
  splitIntoChunks,
  WINDOWS_CHUNK_SIZE,
} from '../../../src-main/core/secrets/secret-chunks';

describe('secret chunking (pure, every platform)', () => {
  it('chunks only on Windows by default, under the 1,280 UTF-16 units one credential holds', () => {
    expect(defaultChunkSize('win32')).toBe(WINDOWS_CHUNK_SIZE);
    expect(WINDOWS_CHUNK_SIZE).toBeLessThan(2560 / 2);
    expect(defaultChunkSize('linux')).toBe(Number.POSITIVE_INFINITY);
    expect(defaultChunkSize('darwin')).toBe(Number.POSITIVE_INFINITY);
  });

  it('reassembles any string exactly, with no piece over the size', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 2, max: 50 }), (value, size) => {
        const chunks = splitIntoChunks(value, size);
        expect(chunks.join('')).toBe(value);
        for (const chunk of chunks) {
          expect(chunk.length).toBeGreaterThan(0);
          expect(chunk.length).toBeLessThanOrEqual(size);
        }
      }),
    );
  });

  it('never cuts a surrogate pair, which a keychain would store as U+FFFD', () => {
    const value = 'a😀'.repeat(50); // 3 code units per repeat: odd sizes land inside pairs
    for (const size of [2, 3, 4, 5, 7]) {
      for (const chunk of splitIntoChunks(value, size)) {
        expect(chunk).toBe(Buffer.from(chunk, 'utf8').toString('utf8'));
        expect(/[\uD800-\uDBFF]$/.test(chunk)).toBe(false);
      }
    }
  });

  it('splits a long key into the expected number of pieces', () => {
    expect(splitIntoChunks('x'.repeat(2500), 1200).map((c) => c.length)).toEqual([1200, 1200, 100]);
    expect(splitIntoChunks('', 1200)).toEqual([]);
  });

  it('chunks a short value that looks like a manifest, so the head entry is never ambiguous', () => {
    expect(needsChunking(`${MANIFEST_PREFIX}deadbeefdeadbeef:2:10`, 1200)).toBe(true);
    expect(needsChunking('sk-short', 1200)).toBe(false);
    expect(needsChunking('x'.repeat(1201), 1200)).toBe(true);
  });

  it('round-trips a manifest and tells it from a plain value', () => {
    const manifest = { generation: '0123456789abcdef', count: 3, length: 2500 };
    expect(parseManifest(encodeManifest(manifest))).toEqual(manifest);
    expect(parseManifest('sk-proj-abc')).toBeNull();
    expect(() => parseManifest(`${MANIFEST_PREFIX}nonsense`)).toThrow(/cannot be parsed/);
  });

  it('names chunk entries under the reserved prefix, ending with the account', () => {
    expect(chunkAccount('provider:openai', 'abcd1234', 2)).toBe('oi-internal/chunk/abcd1234/2/provider:openai');
  });
});
