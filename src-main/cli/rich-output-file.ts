import { errorMessage } from '@contract';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What a terminal cannot show, by preference, with how its data is held in the bundle. */
const SAVED_KINDS: Array<{ mime: string; ext: string; base64: boolean; kind: string }> = [
  { mime: 'image/png', ext: 'png', base64: true, kind: 'image' },
  { mime: 'image/jpeg', ext: 'jpg', base64: true, kind: 'image' },
  { mime: 'image/gif', ext: 'gif', base64: true, kind: 'image' },
  { mime: 'image/webp', ext: 'webp', base64: true, kind: 'image' },
  { mime: 'image/svg+xml', ext: 'svg', base64: false, kind: 'image' },
  { mime: 'application/pdf', ext: 'pdf', base64: true, kind: 'PDF' },
  { mime: 'text/html', ext: 'html', base64: false, kind: 'HTML (open it in a browser)' },
];

/**
 * Saves a rich output (a plot, an interactive chart's HTML) as a file the person can open, since a
 * terminal cannot show it. Returns what was saved and where, or null when the output has nothing
 * a file would show better than its text.
 */
export function saveRichOutput(data: Record<string, unknown>, dir: string, name: string): { kind: string; path: string } | null {
  const choice = SAVED_KINDS.find((k) => typeof data[k.mime] === 'string' || Array.isArray(data[k.mime]));
  if (!choice) return null;
  const raw = data[choice.mime];
  const text = Array.isArray(raw) ? raw.join('') : (raw as string);
  const file = path.join(dir, `${name}.${choice.ext}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, choice.base64 ? Buffer.from(text, 'base64') : text, { mode: 0o600 });
  } catch (err) {
    return { kind: choice.kind, path: `(could not be saved: ${errorMessage(err)})` };
  }
  return { kind: choice.kind, path: file };
}
