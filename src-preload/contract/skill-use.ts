// What the person sees for a call of a skill tool (docs/agent.md#skills) or of save_memory
// (docs/agent.md#memory): one line, the same in the UI and the CLI, instead of the call's JSON. The cell's language says which tool (`skill:load`,
// `skill:read`, set by the main process); its code is the call's arguments.

/** "Using skill chart-maker", "Reading reference/colors.md of skill brand-colors", or null for any other cell. */
export function skillUseText(cell: { language: string; code: string }): string | null {
  if (cell.language !== 'skill:load' && cell.language !== 'skill:read' && cell.language !== 'memory:save') return null;
  let args: { name?: unknown; path?: unknown; note?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(cell.code);
    if (typeof parsed === 'object' && parsed !== null) args = parsed;
  } catch {
    // Still streaming, or not JSON: shown without a name.
  }
  if (cell.language === 'memory:save') return `Remembered: ${typeof args.note === 'string' ? args.note.replace(/\s+/g, ' ').trim() : '…'}`;
  const name = typeof args.name === 'string' ? args.name : '…';
  if (cell.language === 'skill:load') return `Using skill ${name}`;
  return `Reading ${typeof args.path === 'string' ? args.path : '…'} of skill ${name}`;
}
