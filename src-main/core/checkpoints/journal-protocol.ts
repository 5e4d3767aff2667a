/** Messages between the change journal (change-journal.ts) and its thread (journal-worker.ts). */

export type JournalRequest =
  | { id: number; op: 'watch'; root: string; maxFolders: number; overflowAt?: number }
  | { id: number; op: 'take'; root: string }
  | { id: number; op: 'stop'; root: string };

export type JournalReply =
  | { id: number; watching: boolean; folders: number }
  | { id: number; whole: true; reason: string }
  | { id: number; whole: false; dirty: string[]; watchedIgnored: string[] };
