// A message typed as a saved command (docs/agent.md#saved-commands): "/name arguments", the name being
// letters, digits, "-" and "_" (at most 64), as its file is `<name>.md`. The same reading in the
// composer and in oi, so "/review 42" means the same thing in both and "/tmp is full" is a message.

export const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** `/name rest` → the name and the rest, or null when the text is not a slash command's shape. */
export function slashCommandOf(text: string): { name: string; args: string } | null {
  const m = /^\/([A-Za-z0-9][A-Za-z0-9_-]{0,63})(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m?.[1] ? { name: m[1], args: m[2] ?? '' } : null;
}
