import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ConversationItem } from '@contract';
import type { ImageData, ImageMime } from '../llm/provider';

const SENDABLE: ReadonlySet<string> = new Set<ImageMime>(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Anthropic refuses images over 5 MB; OpenAI accepts more, but such images cost a lot for little. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const CACHE_BYTES = 48 * 1024 * 1024;

const cache = new Map<string, { key: string; image: ImageData }>();
let cachedBytes = 0;

/**
 * Reads the image attachments of user messages from the workspace, as base64, for the provider.
 * Paths are confined to the workspace (an attachment path naming ../ or a symlink out is skipped and
 * then described to the model by name only). Reads are cached by path, size and mtime: history is
 * sent again on every call.
 */
export async function loadImages(items: ConversationItem[], workspace: string): Promise<Map<string, ImageData>> {
  const out = new Map<string, ImageData>();
  const root = await realpath(workspace).catch(() => path.resolve(workspace));
  for (const item of items) {
    if (item.kind !== 'user') continue;
    for (const att of item.attachments) {
      if (!SENDABLE.has(att.mime) || out.has(att.path)) continue;
      const image = await readImage(root, att.path, att.mime as ImageMime).catch(() => null);
      if (image) out.set(att.path, image);
    }
  }
  return out;
}

async function readImage(root: string, relative: string, mime: ImageMime): Promise<ImageData | null> {
  const file = await realpath(path.resolve(root, relative));
  const inside = path.relative(root, file);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return null;
  const info = await stat(file);
  if (!info.isFile() || info.size > MAX_IMAGE_BYTES) return null;
  const key = `${info.size}:${info.mtimeMs}`;
  const hit = cache.get(file);
  if (hit?.key === key) return hit.image;
  const image: ImageData = { mime, base64: (await readFile(file)).toString('base64') };
  if (hit) {
    cache.delete(file);
    cachedBytes -= hit.image.base64.length;
  }
  cache.set(file, { key, image });
  cachedBytes += image.base64.length;
  for (const [oldest, entry] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(oldest);
    cachedBytes -= entry.image.base64.length;
  }
  return image;
}
