import { useEffect, useState } from 'react';
import type { Attachment } from '@contract';
import { bridge } from '../../bridge/bridge';

// Image attachments shown in a sent message, read back from the conversation's attachments/ folder
// through the workspace preview (the same confined read the preview panel uses). Kept as data URLs for
// the most recent few, because the message list mounts and unmounts rows as it scrolls.

const KEEP = 40;
const cache = new Map<string, Promise<string | null>>();

function load(conversationId: string, path: string): Promise<string | null> {
  const key = `${conversationId}\n${path}`;
  let found = cache.get(key);
  if (!found) {
    found = bridge['workspace.preview']({ conversationId, path }).then(
      (preview) => (preview.kind === 'image' ? `data:${preview.mime};base64,${preview.dataBase64}` : null),
      () => null,
    );
    cache.set(key, found);
    // Oldest first out; a dropped entry is simply read again when its message comes back into view.
    while (cache.size > KEEP) cache.delete(cache.keys().next().value as string);
  }
  return found;
}

export function isImage(attachment: Attachment): boolean {
  return /^image\/(png|jpeg|gif|webp|svg\+xml|bmp)$/.test(attachment.mime) || /\.(png|jpe?g|gif|webp|bmp)$/i.test(attachment.name);
}

/** The attachment's image as a data URL, or null (loading, not an image, gone from the folder). */
export function useThumbnail(conversationId: string | null, attachment: Attachment): string | null {
  const [url, setUrl] = useState<{ key: string; url: string | null } | null>(null);
  const key = `${conversationId}\n${attachment.path}`;
  const wanted = conversationId !== null && isImage(attachment);
  useEffect(() => {
    if (!wanted || conversationId === null) return;
    let shown = true;
    void load(conversationId, attachment.path).then((found) => shown && setUrl({ key, url: found }));
    return () => {
      shown = false;
    };
  }, [wanted, conversationId, attachment.path, key]);
  return url?.key === key ? url.url : null;
}
