import { useEffect, useState } from 'react';
import type { SavedCommandInfo } from '@contract';
import { slashCommandOf } from '@contract/slash-command';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';

// Saved commands in the window (docs/agent.md#saved-commands): the composer lists them when the message
// starts with "/", and a message sent as "/name arguments" goes as the command's text.

/** The commands this conversation may use, asked for each time the message box starts a "/". */
export function useSavedCommands(active: boolean): SavedCommandInfo[] {
  const conversationId = useApp((s) => s.current?.conv.id ?? null);
  const [commands, setCommands] = useState<SavedCommandInfo[]>([]);
  useEffect(() => {
    if (!active) return;
    let live = true;
    bridge['commands.list'](conversationId ? { conversationId } : {}).then(
      (list) => live && setCommands(list.commands.filter((c) => c.trusted && !c.broken)),
      () => live && setCommands([]),
    );
    return () => {
      live = false;
    };
  }, [active, conversationId]);
  return commands;
}

/** The text to send for a message typed as "/name arguments", or null when no saved command has that name. */
export async function savedCommandText(text: string): Promise<string | null> {
  const typed = slashCommandOf(text);
  if (!typed) return null;
  const conversationId = useApp.getState().current?.conv.id;
  const { text: expanded } = await bridge['commands.expand']({
    ...(conversationId ? { conversationId } : {}),
    name: typed.name,
    arguments: typed.args,
  });
  return expanded;
}
