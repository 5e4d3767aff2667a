import { z } from 'zod';
import { AgentName } from '../hosted-agents';
import { Conversation, ConversationSummary, Id, ModelChoice } from '../model';
import { TITLE_MAX } from '../limits';
import { ConversationRef, Ok, type RequestSpec } from './shared';

/**
 * A folder on this machine, given in full. Main checks that it exists, is a folder and that this user
 * can read and write it; a relative path is refused rather than resolved against main's own cwd.
 */
export const FolderPath = z.string().min(1, 'the path is empty').max(4096);

/** The conversation's folder as the delete confirmation needs it. */
export const WorkspaceInfo = z.object({
  path: z.string(),
  /**
   * True for the folder the app made for this conversation (`<data dir>/workspaces/<id>`), which it
   * may delete with the conversation; false for a folder the user chose or the shared workspace root.
   */
  managed: z.boolean(),
  /** Files in it, not counting the app's own .oi folder; counting stops at `FILE_COUNT_CAP`. */
  files: z.number().int().nonnegative(),
  capped: z.boolean(),
});

export type WorkspaceInfo = z.infer<typeof WorkspaceInfo>;

/** A row of the conversation list; with a search, the text around the first match. */
export const ConversationListEntry = ConversationSummary.extend({
  /** `text` is an excerpt of the matching title, message, code or notice; the match is text.slice(start, start + length). */
  match: z.object({ text: z.string(), start: z.number().int().nonnegative(), length: z.number().int().nonnegative() }).optional(),
});

export type ConversationListEntry = z.infer<typeof ConversationListEntry>;

export const FILE_COUNT_CAP = 10_000;

export const conversationRequests = {
  'conversation.create': {
    /** `workspace`: an existing folder to work in instead of a new one under the app's data folder. */
    input: z.object({ title: z.string().max(TITLE_MAX).optional(), workspace: FolderPath.optional() }).strict(),
    output: Conversation,
  },
  /** Conversations with at least one item (one exists once its first message is sent), newest first. */
  'conversation.list': {
    input: z.object({ query: z.string().max(500).optional() }).strict(),
    output: z.array(ConversationListEntry),
  },
  'conversation.get': {
    input: ConversationRef,
    output: Conversation,
  },
  'conversation.rename': {
    input: z.object({ conversationId: Id, title: z.string().min(1, 'the title is empty').max(TITLE_MAX) }).strict(),
    output: ConversationSummary,
  },
  /**
   * Deletes the conversation's file. Its workspace folder stays, unless `removeWorkspace` is set and
   * the folder is the one the app made for it (`<data dir>/workspaces/<id>`, used by no other
   * conversation); for any other folder the request is refused and nothing is deleted.
   */
  'conversation.delete': {
    input: z.object({ conversationId: Id, removeWorkspace: z.boolean().optional() }).strict(),
    output: Ok,
  },
  /**
   * Moves the conversation to another existing folder. Refused while a turn or a re-run is running
   * in it. Its sessions are closed (the next run starts in the new folder), a notice records the
   * change (and tells the model), the file panel follows.
   */
  'conversation.set-workspace': {
    input: z.object({ conversationId: Id, path: FolderPath }).strict(),
    output: Conversation,
  },
  /** Where the conversation works, whether the app made that folder, and how many files it holds. */
  'conversation.workspace-info': { input: ConversationRef, output: WorkspaceInfo },
  /**
   * The desktop app's native folder picker, opened at the conversation's folder; `path` is null when
   * the user cancelled. Browser mode has none and refuses: the page asks for a typed path instead.
   */
  'conversation.pick-folder': { input: ConversationRef, output: z.object({ path: z.string().nullable() }) },
  /** Removes the last user message and everything after it; refused while a turn runs. */
  'conversation.undo': { input: ConversationRef, output: Conversation },
  /**
   * A new conversation from a saved file: Open Interpreter's LMC messages (a JSON array of
   * {role, type, format?, content}), its older {role, message, code, output} form, or a conversation
   * this app wrote. `json` is the file's text.
   */
  'conversation.import': {
    input: z.object({ json: z.string().min(2).max(64_000_000), title: z.string().max(TITLE_MAX).optional() }).strict(),
    output: Conversation,
  },
  /** The conversation as LMC messages (JSON text), which Open Interpreter and `conversation.import` read. */
  'conversation.export-lmc': { input: ConversationRef, output: z.object({ json: z.string() }) },
  /**
   * The provider and model this conversation talks to from now on (the model picker). Refused for a pair
   * that cannot work (a Claude model at OpenAI, a GPT at Anthropic).
   */
  'conversation.set-model': {
    input: z.object({ conversationId: Id, choice: ModelChoice }).strict(),
    output: Conversation,
  },
  /**
   * Who answers this conversation: an outside ACP agent of Settings → Agents by name, or null for ours
   * (docs/acp.md#hosting). Only before its first message: an agent does not know what another said.
   */
  'conversation.set-agent': {
    input: z.object({ conversationId: Id, agent: AgentName.nullable() }).strict(),
    output: Conversation,
  },
} as const satisfies Record<string, RequestSpec>;
