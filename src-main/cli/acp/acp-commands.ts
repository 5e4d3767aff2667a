import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { AvailableCommand } from '@agentclientprotocol/sdk';
import { errorMessage } from '@contract/error-message';
import { slashCommandOf } from '@contract/slash-command';
import type { ExportMeta } from '../../core/notebook/ipynb-export';
import type { CliSession } from '../cli-session';
import { runMagic } from '../magic-commands';
import { resolveInWorkspace } from '../../core/workspace/resolve-in-workspace';
import { workspaceSegments } from '../../core/workspace/confine';
import { withSavedCommand } from '../saved-command-line';

// The slash commands `oi acp` offers (ACP `available_commands_update`): oi's `%` magic commands that
// act on the session in place, typed `/name args` in the editor, and the person's saved commands (as
// `/name` in oi). %reset and %load are left out (they switch to another conversation, and an ACP
// session is one conversation); %help and shell lines speak of oi's own prompt.

const MAGIC: AvailableCommand[] = [
  { name: 'tokens', description: 'Tokens used, cost, and how full the context window is' },
  { name: 'undo', description: 'Remove your last message and everything after it' },
  {
    name: 'rewind',
    description: "Put the workspace's files back as they were before the n-th last cell ran",
    input: { hint: '[n] [--force]' },
  },
  { name: 'traceback', description: 'The whole traceback of the last error' },
  { name: 'save', description: 'Save this conversation as Open Interpreter (LMC) messages', input: { hint: 'file.json' } },
  { name: 'export', description: 'Export this conversation as a Jupyter notebook', input: { hint: 'file.ipynb' } },
  { name: 'commands', description: 'The saved commands this conversation can use' },
];
const MAGIC_NAMES = new Set(MAGIC.map((c) => c.name));
/** Their argument is a file: relative to the session's folder, not to where the editor started `oi acp`. */
const FILE_ARG = new Set(['save', 'export']);

/** The magic commands and the saved commands this conversation can use (a saved one named like a magic one is hidden by it). */
export async function availableCommands(session: CliSession): Promise<AvailableCommand[]> {
  const { commands } = await session.call('commands.list', { conversationId: session.conversationId });
  const saved = commands
    .filter((c) => c.trusted && !c.broken && !MAGIC_NAMES.has(c.name))
    .map((c): AvailableCommand => {
      const hint = c.argumentHint ?? (c.takesArguments ? 'arguments' : null);
      return { name: c.name, description: c.description || `Saved command (${c.path})`, ...(hint ? { input: { hint } } : {}) };
    });
  return [...MAGIC, ...saved];
}

/**
 * A prompt `/name args` naming a magic command runs it as oi runs `%name args`, and its output is the
 * answer (`say`): true then, and the model is not called. Otherwise the text to send the model: a
 * saved command's text with its arguments filled in, or the prompt as it is.
 */
export async function runSlashCommand(
  session: CliSession,
  text: string,
  meta: () => ExportMeta,
  say: (text: string) => void,
): Promise<{ ran: true } | { ran: false; message: string }> {
  const slash = slashCommandOf(text);
  if (slash && MAGIC_NAMES.has(slash.name)) {
    let args = slash.args.trim();
    if (FILE_ARG.has(slash.name) && args) {
      try {
        args = await fileInWorkspace(session.workspace, args.replace(/^["']|["']$/g, ''));
      } catch (err) {
        // As runMagic answers a failed command: in words, as the answer.
        say(`/${slash.name} failed: ${errorMessage(err)}`);
        return { ran: true };
      }
    }
    const lines: string[] = [];
    await runMagic(`%${slash.name} ${args}`, { session, print: (line) => lines.push(line), meta });
    say(lines.join('\n'));
    return { ran: true };
  }
  return { ran: false, message: await withSavedCommand(session, text, (line) => say(`${line}\n\n`)).catch(() => text) };
}

/**
 * Where a /save or /export named in the session's folder is written. Sandboxed code can write that
 * folder, so the path may not leave it and may not pass through a link there, the file itself
 * included (a planted `notes.json -> ~/.bashrc` would otherwise be written through); the write itself
 * is a temp file renamed over the name, which replaces a link rather than following it.
 */
async function fileInWorkspace(workspace: string, rel: string): Promise<string> {
  const named = workspaceSegments(rel);
  const { realRoot, segments } = await resolveInWorkspace(workspace, rel, { followFinal: false });
  const target = path.join(realRoot, ...segments);
  const final = await lstat(target).catch(() => null);
  if (segments.join('/') !== named.join('/') || final?.isSymbolicLink())
    throw new Error(`"${rel}" goes through a link in the workspace; name a plain file there`);
  return target;
}
