import { slashCommandOf } from '@contract/slash-command';
import type { CliSession } from './cli-session';

// A message typed as `/name arguments` in oi (at the prompt or with -m) that names a saved command
// (docs/agent.md#saved-commands) is sent as the command's text with the arguments filled in; a line
// says which file it came from, so the person knows what the model was sent. Any other text, "/tmp is
// full" included, is sent as it is.

export async function withSavedCommand(session: CliSession, text: string, say: (line: string) => void): Promise<string> {
  const slash = slashCommandOf(text);
  if (!slash) return text;
  const expanded = await session.call('commands.expand', {
    conversationId: session.conversationId,
    name: slash.name,
    arguments: slash.args,
  });
  if (expanded.text === null) return text;
  say(`⚙ /${slash.name}: the saved command in ${expanded.path ?? '?'}`);
  return expanded.text;
}

/** `%commands`: the saved commands this conversation can use, and those waiting for trust. */
export async function listSavedCommands(session: CliSession): Promise<string> {
  const { commands, userFolder, trustFolder } = await session.call('commands.list', { conversationId: session.conversationId });
  const lines = commands.map((c) => {
    const args = c.argumentHint ? ` ${c.argumentHint}` : c.takesArguments ? ' <arguments>' : '';
    const state = c.broken
      ? ` (not usable: ${c.broken})`
      : c.trusted
        ? ''
        : ` (not offered until you trust ${trustFolder ?? 'its folder'}: oi trust)`;
    return `  /${c.name}${args}${c.description ? ` — ${c.description}` : ''}${state}`;
  });
  return lines.length > 0
    ? `Saved commands:\n${lines.join('\n')}`
    : `No saved commands. Put <name>.md files in ${userFolder} or the workspace's .agents/commands/.`;
}
