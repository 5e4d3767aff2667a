import { RESERVED_ACCOUNT_PREFIX } from './secret-store';

// How a secret too long for one keychain entry is kept. Windows Credential Manager refuses blobs over
// 2,560 bytes, and it stores passwords as UTF-16, so one entry holds at most 1,280 UTF-16 code units;
// macOS Keychain and the Secret Service have no limit worth planning for. A long value is split over
// chunk entries and the account's own entry holds a short manifest naming them.

/** UTF-16 code units per entry on Windows, with room to spare under the 1,280-unit ceiling. */
export const WINDOWS_CHUNK_SIZE = 1200;

export function defaultChunkSize(platform: NodeJS.Platform): number {
  return platform === 'win32' ? WINDOWS_CHUNK_SIZE : Number.POSITIVE_INFINITY;
}

export const MANIFEST_PREFIX = 'oi-chunked/v1:';

/**
 * Chunks are named with a generation so a replacement never overwrites the chunks the current manifest
 * points at: the new chunks are written first, then the manifest, then the old chunks are removed. A
 * crash in between leaves the old value readable.
 */
export interface ChunkManifest {
  generation: string;
  count: number;
  /** Length of the whole value, checked on reassembly so a missing or stale chunk is noticed. */
  length: number;
}

/** A value that happens to start like a manifest is chunked too, so the head entry is never ambiguous. */
export function needsChunking(value: string, chunkSize: number): boolean {
  return value.length > chunkSize || value.startsWith(MANIFEST_PREFIX);
}

/**
 * Splits into pieces of at most `chunkSize` UTF-16 code units without cutting a surrogate pair: a lone
 * surrogate cannot be encoded, and keychains would store U+FFFD in its place.
 */
export function splitIntoChunks(value: string, chunkSize: number): string[] {
  if (!Number.isInteger(chunkSize) || chunkSize < 2) {
    throw new RangeError(`chunkSize must be an integer of at least 2 (got ${chunkSize})`);
  }
  const chunks: string[] = [];
  let start = 0;
  while (start < value.length) {
    let end = Math.min(start + chunkSize, value.length);
    if (end < value.length && isHighSurrogate(value.charCodeAt(end - 1))) end -= 1;
    chunks.push(value.slice(start, end));
    start = end;
  }
  return chunks;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function encodeManifest(manifest: ChunkManifest): string {
  return `${MANIFEST_PREFIX}${manifest.generation}:${manifest.count}:${manifest.length}`;
}

const MANIFEST_PATTERN = /^oi-chunked\/v1:([0-9a-f]{8,32}):([1-9][0-9]{0,5}):([1-9][0-9]{0,9})$/;

/** null when `head` is a plain value; throws when it claims to be a manifest but is not a valid one. */
export function parseManifest(head: string): ChunkManifest | null {
  if (!head.startsWith(MANIFEST_PREFIX)) return null;
  const match = MANIFEST_PATTERN.exec(head);
  if (!match) throw new Error('the entry looks like a chunk manifest but cannot be parsed');
  const [, generation, count, length] = match as unknown as [string, string, string, string];
  return { generation, count: Number(count), length: Number(length) };
}

/** The account's name comes last so keychain browsers (Keychain Access, Seahorse) show whose chunk it is. */
export function chunkAccount(account: string, generation: string, index: number): string {
  return `${RESERVED_ACCOUNT_PREFIX}chunk/${generation}/${index}/${account}`;
}

export function chunkAccounts(account: string, manifest: ChunkManifest): string[] {
  return Array.from({ length: manifest.count }, (_, index) => chunkAccount(account, manifest.generation, index));
}
