import path from 'node:path';
import type { Conversation } from '@contract';
import type { App } from '../core/app';
import { localRequests } from '../core/bridge/local-requests';
import { SetupError } from './setup-error';

export interface ConversationChoice {
  /** --conversation: an id or the first characters of one. */
  id: string | null;
  /** -c/--continue. */
  last: boolean;
  /** --notebook: a .ipynb file imported as a new conversation. */
  notebook: string | null;
}

/** The conversation this run works in: a saved one (by id, id prefix, or the last one), an imported notebook, or a new one. */
export async function chooseConversation(app: App, choice: ConversationChoice, warn: (line: string) => void): Promise<Conversation> {
  if (choice.notebook) return importNotebookFile(app, choice.notebook, warn);
  if (choice.last) {
    // The last conversation of the person at this terminal: one `oi mcp` recorded for another agent
    // (mcpClient) is not theirs to continue by accident; --conversation <id> still opens it.
    const latest = (await localRequests(app.handlers)('conversation.list', {})).find((c) => c.mcpClient === undefined);
    if (!latest)
      throw new SetupError(
        'there is no saved conversation to continue yet (start one with `oi`; conversations oi mcp recorded open with --conversation <id>)',
      );
    return localRequests(app.handlers)('conversation.get', { conversationId: latest.id });
  }
  if (choice.id) return localRequests(app.handlers)('conversation.get', { conversationId: await resolveId(app, choice.id) });
  return localRequests(app.handlers)('conversation.create', {});
}

/** A whole id, or the one saved conversation whose id starts with what was given (as git takes a short hash). */
async function resolveId(app: App, given: string): Promise<string> {
  const list = await localRequests(app.handlers)('conversation.list', {});
  if (list.some((c) => c.id === given)) return given;
  const matches = list.filter((c) => c.id.startsWith(given));
  if (matches.length === 1 && matches[0]) return matches[0].id;
  if (matches.length === 0) throw new SetupError(`no saved conversation has an id starting with "${given}" (see oi --list)`);
  const shown = matches.slice(0, 5).map((c) => `  ${c.id}  ${c.title}`);
  throw new SetupError(`"${given}" starts ${matches.length} conversation ids; give more characters:\n${shown.join('\n')}`);
}

/** `oi --notebook file.ipynb`: the notebook as a new conversation (the app's import, its size limit and errors). */
async function importNotebookFile(app: App, file: string, warn: (line: string) => void): Promise<Conversation> {
  const { conversation, warnings } = await localRequests(app.handlers)('notebook.import', {
    fileName: path.basename(file),
    source: { sourcePath: file },
  });
  for (const warning of warnings) warn(`${path.basename(file)}: ${warning}`);
  return conversation;
}
