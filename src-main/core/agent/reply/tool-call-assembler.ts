import { Allow, parse as parsePartialJson } from 'partial-json';
import { errorMessage } from '@contract/error-message';

export interface AssembledCall {
  index: number;
  id: string;
  name: string;
  args: string;
}

export type ParsedExecuteArgs = { ok: true; language: string; code: string } | { ok: false; error: string };

/** Collects streamed tool-call argument deltas, keyed by the provider's call index. */
export class ToolCallAssembler {
  private readonly calls = new Map<number, AssembledCall>();

  start(index: number, id: string, name: string): AssembledCall {
    const call = { index, id, name, args: '' };
    this.calls.set(index, call);
    return call;
  }

  append(index: number, delta: string): AssembledCall | undefined {
    const call = this.calls.get(index);
    if (call) call.args += delta;
    return call;
  }

  all(): AssembledCall[] {
    return [...this.calls.values()].sort((a, b) => a.index - b.index);
  }
}

/** Best-effort view of half-written arguments, so code appears while the model is still writing it. */
export function peekExecuteArgs(args: string): { language: string; code: string } {
  try {
    const value: unknown = parsePartialJson(args, Allow.ALL);
    if (value && typeof value === 'object') {
      const v = value as Record<string, unknown>;
      return { language: typeof v.language === 'string' ? v.language : '', code: typeof v.code === 'string' ? v.code : '' };
    }
  } catch {
    /* not enough text yet */
  }
  return { language: '', code: '' };
}

/** Strict parse of finished arguments; the error text goes back to the model, so it says what is wrong. */
export function parseExecuteArgs(args: string): ParsedExecuteArgs {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch (err) {
    return {
      ok: false,
      error: `the tool arguments are not valid JSON (${errorMessage(err)}); send {"language": "...", "code": "..."}`,
    };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'the tool arguments must be an object {"language": "...", "code": "..."}' };
  }
  const v = value as Record<string, unknown>;
  if (typeof v.language !== 'string' || !v.language)
    return { ok: false, error: 'the tool arguments lack "language" (a string such as "python" or "shell")' };
  if (typeof v.code !== 'string') return { ok: false, error: 'the tool arguments lack "code" (a string)' };
  return { ok: true, language: v.language, code: v.code };
}
