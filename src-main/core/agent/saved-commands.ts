import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { SavedCommandInfo } from '@contract';
import { COMMAND_NAME } from '@contract/slash-command';
import { readBeneath } from '../fs/bounded-read';
import { holdFolder } from '../fs/no-follow-open';
import { workspaceTrust } from '../workspace/workspace-trust';
import { readFrontMatter } from './skills/skill-front-matter';

// Saved commands (issue 28, item 4; docs/agent.md#saved-commands): markdown files that become `/name`
// slash commands, in the form Claude Code, Codex and OpenCode read — `<name>.md`, optional front
// matter with `description` and `argument-hint`, and a body where `$ARGUMENTS` is everything typed
// after the name and `$1`…`$9` its words (quotes group words). Found in the person's commands folder
// (`<data folder>/commands/`) and the workspace's `.agents/commands/` (`.claude/commands/` for
// compatibility), looked for again each time they are listed or used. A workspace's commands are a
// stranger's text until the person trusts its folder (the trust of AGENTS.md and skills): listed by
// name, never read, never offered. Read like AGENTS.md: never through a link, never waiting on a FIFO,
// bounded. Nothing in a command runs: its text becomes the person's message, to edit or send.

/** Bytes of a command file read; a longer file is refused (a message is not a document). */
export const COMMAND_FILE_BYTES = 32 * 1024;
/** Files looked at in one commands folder. */
export const MAX_COMMANDS_PER_FOLDER = 200;
const PLACEHOLDER = /\$(\$|ARGUMENTS|[1-9])/g;

export interface FoundCommand extends SavedCommandInfo {
  /** The text after the front matter; '' for an untrusted or broken command. */
  body: string;
}

export interface CommandSources {
  /** The app's data folder, whose `commands/` holds the person's commands; null for none (tests). */
  dataDir: string | null;
  trusted: () => readonly string[];
}

export interface FoundCommands {
  commands: FoundCommand[];
  trustFolder: string | null;
  trusted: boolean;
}

export const userCommandsFolder = (dataDir: string): string => path.join(dataDir, 'commands');

const WORKSPACE_PLACES = [
  ['.agents', 'commands'],
  ['.claude', 'commands'],
] as const;

export async function findSavedCommands(workspace: string | null, sources: CommandSources): Promise<FoundCommands> {
  const trust = workspace === null ? null : await workspaceTrust(workspace, sources.trusted());
  const places = await Promise.all([
    sources.dataDir ? commandsIn(sources.dataDir, ['commands'], 'user', true) : [],
    ...(trust ? WORKSPACE_PLACES.map((place) => commandsIn(trust.real, place, 'workspace', trust.trusted)) : []),
  ]);
  const commands = places.flat();
  // One name, one command: the person's own wins (a repository cannot replace it), then .agents.
  const seen = new Map<string, FoundCommand>();
  for (const command of commands) {
    if (command.broken) continue;
    const first = seen.get(command.name);
    if (first)
      Object.assign(command, {
        body: '',
        broken: `another command is already called /${command.name} (${first.path}), and that one is used`,
      });
    else seen.set(command.name, command);
  }
  return { commands, trustFolder: trust?.trustFolder ?? null, trusted: trust?.trusted ?? false };
}

/** The command `/name` may run as: the person's own or a trusted workspace's, not broken. */
export const usableCommand = (found: FoundCommands, name: string): FoundCommand | null =>
  found.commands.find((c) => c.name === name && c.trusted && !c.broken) ?? null;

async function commandsIn(
  root: string,
  segments: readonly string[],
  source: SavedCommandInfo['source'],
  trusted: boolean,
): Promise<FoundCommand[]> {
  let held;
  try {
    held = await holdFolder(root, segments);
  } catch {
    return []; // no such folder (or a link where it should be): no commands there
  }
  const where = path.join(root, ...segments);
  try {
    const names = (await readdir(held.self))
      .filter((n) => n.endsWith('.md'))
      .sort()
      .slice(0, MAX_COMMANDS_PER_FOLDER);
    return await Promise.all(
      names.map(async (file): Promise<FoundCommand> => {
        const command: FoundCommand = {
          name: file.slice(0, -3),
          description: '',
          argumentHint: null,
          takesArguments: false,
          source,
          path: path.join(where, file),
          trusted,
          broken: null,
          body: '',
        };
        if (!COMMAND_NAME.test(command.name)) return { ...command, broken: `${file}: a command's name is letters, digits, "-" and "_"` };
        // A stranger's file is not even read before the person trusts its folder.
        if (!trusted) return command;
        const read = await readBeneath(held.self, [file], COMMAND_FILE_BYTES);
        if (!read.ok) return { ...command, broken: read.message };
        if (read.bytes.length > COMMAND_FILE_BYTES) return { ...command, broken: `${file} is longer than ${COMMAND_FILE_BYTES / 1024} KB` };
        const front = readFrontMatter(read.bytes.toString('utf8'));
        if (!front.ok) return { ...command, broken: `${file}: ${front.reason}` };
        const field = (key: string) => {
          const value = front.fields?.[key];
          return typeof value === 'string' && value.trim() ? value.replace(/\s+/g, ' ').trim().slice(0, 300) : null;
        };
        return {
          ...command,
          description: field('description') ?? firstLine(front.body),
          argumentHint: field('argument-hint'),
          takesArguments: /\$(ARGUMENTS|[1-9])/.test(front.body),
          body: front.body,
        };
      }),
    );
  } finally {
    await held.close();
  }
}

const firstLine = (body: string): string => (body.split('\n').find((l) => l.trim()) ?? '').replace(/^#+\s*/, '').slice(0, 120);

/**
 * The command's text with what was typed after its name: `$ARGUMENTS` all of it, `$1`…`$9` its words
 * (a missing one is empty), `$$` a dollar sign. A command with no placeholder gets the arguments
 * after its text, so nothing typed is lost.
 */
export function expandCommand(body: string, typed: string): string {
  const args = typed.trim();
  const words = splitWords(args);
  let used = false;
  const text = body.replace(PLACEHOLDER, (_all, key: string) => {
    if (key === '$') return '$';
    used = true;
    return key === 'ARGUMENTS' ? args : (words[Number(key) - 1] ?? '');
  });
  return used || !args ? text : `${text}\n\n${args}`;
}

/** Words as a shell splits them: spaces separate, "…" and '…' group. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}
