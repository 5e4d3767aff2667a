import type { UserCellMeta } from './app-metadata';

// Images dropped into the chat travel inside the notebook as attachments of the user's markdown
// cell, referenced from the cell's text so Jupyter shows them. Other files are only named (a
// notebook is no place for arbitrary binaries). The lines added to the text are derived from the
// cell's `oi` metadata, so import can remove exactly them and give back the message as typed.

export type ListedAttachment = UserCellMeta['attachments'][number];

/** A name usable as an attachment key and inside a markdown link without escaping. */
export function attachmentKey(name: string, taken: Set<string>): string {
  const base = shortened(name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '') || 'attachment');
  let key = base;
  for (let n = 2; taken.has(key); n++) {
    const dot = base.lastIndexOf('.');
    key = dot > 0 ? `${base.slice(0, dot)}-${n}${base.slice(dot)}` : `${base}-${n}`;
  }
  taken.add(key);
  return key;
}

// Keys become file names on import (attachments/<cell id>-<key>); file systems refuse names over 255 bytes.
const MAX_KEY = 100;

function shortened(key: string): string {
  if (key.length <= MAX_KEY) return key;
  const dot = key.lastIndexOf('.');
  const ext = dot > 0 && key.length - dot <= 16 ? key.slice(dot) : '';
  return key.slice(0, MAX_KEY - ext.length) + ext;
}

// A user's message in a notebook reads as theirs: a quote under a "User:" heading, so prose the
// model wrote and what the user asked are told apart in Jupyter too. Import removes exactly this.
const USER_HEADING = '**User:**';

export function quotedUserText(text: string): string {
  const quoted = text.split('\n').map((line) => (line === '' ? '>' : `> ${line}`));
  return `${USER_HEADING}\n\n${quoted.join('\n')}`;
}

/** The message inside a quote made by quotedUserText; the source itself when it is not one. */
export function unquotedUserText(source: string): string {
  if (!source.startsWith(`${USER_HEADING}\n\n`)) return source;
  const lines = source.slice(USER_HEADING.length + 2).split('\n');
  if (!lines.every((line) => line === '>' || line.startsWith('> '))) return source;
  return lines.map((line) => (line === '>' ? '' : line.slice(2))).join('\n');
}

export function attachmentLines(attachments: readonly ListedAttachment[]): string {
  return attachments
    .map((a) =>
      a.embedded !== null
        ? `![${a.name.replace(/[\\[\]]/g, '\\$&')}](attachment:${a.embedded})`
        : `*Attached: ${a.name.replace(/[\\*_`]/g, '\\$&')}*`,
    )
    .join('\n');
}

export function withAttachmentLines(text: string, attachments: readonly ListedAttachment[]): string {
  if (attachments.length === 0) return text;
  const lines = attachmentLines(attachments);
  return text === '' ? lines : `${text}\n\n${lines}`;
}

/** The message text without the lines export added; null when the text no longer ends with them. */
export function withoutAttachmentLines(source: string, attachments: readonly ListedAttachment[]): string | null {
  if (attachments.length === 0) return source;
  const lines = attachmentLines(attachments);
  if (source === lines) return '';
  return source.endsWith(`\n\n${lines}`) ? source.slice(0, source.length - lines.length - 2) : null;
}
