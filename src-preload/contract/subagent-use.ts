// A `delegate` call (docs/agent.md#sub-agents) is recorded as a cell of this language, its code the
// call's JSON arguments; the UI and the CLI show it as a sub-agent's thread rather than as code. Zod-free,
// so the renderer can take the value.

export const DELEGATE_LANGUAGE = 'agent:delegate';

export function isDelegateCell(cell: { language: string }): boolean {
  return cell.language === DELEGATE_LANGUAGE;
}

/** The task a delegate call gives, read from its (possibly still streaming) arguments; '' until known. */
export function delegateTask(code: string): { name: string; task: string } {
  try {
    const parsed: unknown = JSON.parse(code);
    if (typeof parsed === 'object' && parsed !== null) {
      const a = parsed as { name?: unknown; task?: unknown };
      return { name: typeof a.name === 'string' ? a.name : '', task: typeof a.task === 'string' ? a.task : '' };
    }
  } catch {
    // Still streaming.
  }
  return { name: '', task: '' };
}
