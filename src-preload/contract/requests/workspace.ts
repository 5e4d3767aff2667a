import { z } from 'zod';
import { Attachment, Id } from '../model';
import { Ok, type RequestSpec } from './shared';

// The conversation's workspace as the file panel sees it. Every path is relative to the workspace
// root with '/' separators; main refuses anything that would leave the root (../, absolute paths,
// symlinks pointing outside, Windows device names).

export const WorkspacePath = z.string().min(1).max(4096);

export const WorkspaceEntry = z.object({
  path: WorkspacePath,
  kind: z.enum(['file', 'dir', 'symlink', 'other']),
  size: z.number().int().nonnegative(),
  mtimeMs: z.number().nonnegative(),
});

export const WorkspaceTree = z.object({
  /** Absolute path of the root, for display and "reveal". */
  root: z.string(),
  entries: z.array(WorkspaceEntry),
  /** True when the listing stopped at its entry cap; deeper or later files exist but are not shown. */
  truncated: z.boolean(),
});

const PreviewBase = { path: WorkspacePath, size: z.number().int().nonnegative(), mtimeMs: z.number().nonnegative(), mime: z.string() };

export const FilePreview = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('image'), ...PreviewBase, dataBase64: z.string() }),
  z.object({ kind: z.literal('text'), ...PreviewBase, text: z.string(), truncated: z.boolean(), language: z.string() }),
  /** The .ipynb file's JSON text; the renderer shows it read-only. */
  z.object({ kind: z.literal('notebook'), ...PreviewBase, text: z.string() }),
  /** Binary, a directory, or too large to show: metadata only. */
  z.object({ kind: z.literal('meta'), ...PreviewBase, reason: z.string() }),
]);

import { MAX_ATTACHMENT_BYTES } from '../limits';

export { MAX_ATTACHMENT_BYTES };

const WorkspaceRef = { conversationId: Id };

export const workspaceRequests = {
  'workspace.tree': {
    input: z.object(WorkspaceRef).strict(),
    output: WorkspaceTree,
  },
  'workspace.preview': {
    input: z.object({ ...WorkspaceRef, path: WorkspacePath }).strict(),
    output: FilePreview,
  },
  'workspace.rename': {
    input: z.object({ ...WorkspaceRef, from: WorkspacePath, to: WorkspacePath }).strict(),
    output: z.object({ path: WorkspacePath }),
  },
  'workspace.delete': {
    input: z.object({ ...WorkspaceRef, path: WorkspacePath }).strict(),
    output: Ok,
  },
  /** Opens the OS file manager at the file (or the workspace when no path is given). */
  'workspace.reveal': {
    input: z.object({ ...WorkspaceRef, path: WorkspacePath.optional() }).strict(),
    output: Ok,
  },
  /** A dropped or pasted file's bytes, copied into attachments/ (the original is never touched). */
  'workspace.attach': {
    input: z
      .object({
        ...WorkspaceRef,
        name: z.string().min(1).max(1024),
        mime: z.string().max(255),
        // base64 grows bytes by 4/3; the exact byte limit is checked after decoding.
        dataBase64: z
          .string()
          .max(
            Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 4,
            `files larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB cannot be attached`,
          ),
      })
      .strict(),
    output: Attachment,
  },
  /**
   * Desktop only: the OS Save dialog, then a copy of the file where the user chose (savedTo; null when
   * cancelled). Browser mode refuses it: there the page downloads the file from the server's
   * /files/<conversationId>/<path> route, guarded by the same token cookie as the page.
   */
  'workspace.save-copy': {
    input: z.object({ ...WorkspaceRef, path: WorkspacePath }).strict(),
    output: z.object({ savedTo: z.string().nullable() }),
  },
  /**
   * Desktop only: opens a workspace file in another app — Windows' "Open with" chooser (chooser true),
   * elsewhere the file's default app. Refused for what is not a regular file inside the workspace and
   * for programs, scripts and executable files (core/workspace/file-to-open.ts). Browser mode refuses it.
   */
  'workspace.open-with': {
    input: z.object({ ...WorkspaceRef, path: WorkspacePath }).strict(),
    output: z.object({ opened: z.boolean(), chooser: z.boolean() }),
  },
  /** Desktop only: copies a file the user dropped (its OS path) into attachments/. */
  'workspace.attach-path': {
    input: z.object({ ...WorkspaceRef, sourcePath: z.string().min(1).max(4096) }).strict(),
    output: Attachment,
  },
} as const satisfies Record<string, RequestSpec>;

export type WorkspaceEntry = z.infer<typeof WorkspaceEntry>;
export type WorkspaceTree = z.infer<typeof WorkspaceTree>;
export type FilePreview = z.infer<typeof FilePreview>;
