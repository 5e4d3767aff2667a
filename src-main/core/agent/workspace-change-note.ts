import type { ConversationItem, NoticeItem } from '@contract';

/**
 * Notices are the app's and never reach the model, but a move to another folder must: earlier
 * outputs name the old folder and the sessions it knew are gone. The change is told once, where it
 * happened, as a note ahead of the user's next message (every provider accepts a user message there;
 * a message of the app's own would need a role some of them lack). Only the request's copy changes.
 */
export function withWorkspaceNotes(items: ConversationItem[]): ConversationItem[] {
  if (!items.some((item) => item.kind === 'notice' && (item.workspaceChange || item.rewind))) return items;
  const out: ConversationItem[] = [];
  let notes: string[] = [];
  for (const item of items) {
    if (item.kind === 'notice' && item.workspaceChange) notes.push(noteFor(item.workspaceChange));
    if (item.kind === 'notice' && item.rewind) notes.push(rewindNote(item.rewind.changedPaths));
    if (item.kind === 'user' && notes.length > 0) {
      out.push({ ...item, text: `${notes.join('\n')}\n\n${item.text}` });
      notes = [];
      continue;
    }
    out.push(item);
  }
  return out;
}

function noteFor(change: NonNullable<NoticeItem['workspaceChange']>): string {
  return (
    `[Note from the app, not written by the user: the workspace is now ${change.to} (it was ${change.from}). ` +
    'Every session was restarted there, so variables and imports from earlier runs are gone; files written before stay in the old folder.]'
  );
}

function rewindNote(changedPaths: number): string {
  return (
    `[Note from the app, not written by the user: the user rewound the workspace's files to how they were before an earlier run (${changedPaths} paths changed back). ` +
    'Files written since then are gone or restored; variables in the running sessions were not rewound.]'
  );
}
