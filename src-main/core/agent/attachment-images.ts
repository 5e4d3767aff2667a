import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ConversationItem } from '@contract';
import type { ImageData, ImageMime } from '../llm/provider';
import { openWorkspaceFile } from '../workspace/open-workspace-file';

const SENDABLE: ReadonlySet<string> = new Set<ImageMime>(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Anthropic refuses images over 5 MB; OpenAI accepts more, but such images cost a lot for little. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const CACHE_BYTES = 48 * 1024 * 1024;

const cache = new Map<string, { key: string; image: ImageData }>();
let cachedBytes = 0;

/**
 * Reads the image attachments of user messages from the workspace, as base64, for the provider.
 * Paths are opened inside the workspace without following a link at any component (an attachment path
 * naming ../ or a link out is skipped and then described to the model by name only), so code swapping
 * a folder for a link cannot send a file from elsewhere to the provider. Reads are cached by path, size and mtime: history is
 * sent again on every call.
 */
export async function loadImages(items: ConversationItem[], workspace: string): Promise<Map<string, ImageData>> {
  const out = new Map<string, ImageData>();
  // Resolved only once there is an image to read: a model call without one makes no trip to the disk.
  let root: string | undefined;
  for (const item of items) {
    if (item.kind !== 'user') continue;
    for (const att of item.attachments) {
      if (!SENDABLE.has(att.mime) || out.has(att.path)) continue;
      root ??= await realpath(workspace).catch(() => path.resolve(workspace));
      const image = await readImage(root, att.path, att.mime as ImageMime).catch(() => null);
      if (image) out.set(att.path, image);
    }
  }
  return out;
}

async function readImage(root: string, relative: string, mime: ImageMime): Promise<ImageData | null> {
  const file = await openWorkspaceFile(root, relative);
  try {
    if (file.size > MAX_IMAGE_BYTES) return null;
    const info = await file.handle.stat();
    // The file opened, by identity and version: a same-named file swapped in is read afresh.
    const key = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
    const cacheKey = path.join(root, relative);
    const hit = cache.get(cacheKey);
    if (hit?.key === key) return hit.image;
    const image: ImageData = { mime, base64: (await file.handle.readFile()).toString('base64') };
    remember(cacheKey, key, image);
    return image;
  } finally {
    await file.handle.close();
  }
}

function remember(cacheKey: string, key: string, image: ImageData): void {
  const old = cache.get(cacheKey);
  if (old) {
    cache.delete(cacheKey);
    cachedBytes -= old.image.base64.length;
  }
  cache.set(cacheKey, { key, image });
  cachedBytes += image.base64.length;
  for (const [oldest, entry] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(oldest);
    cachedBytes -= entry.image.base64.length;
  }
}
