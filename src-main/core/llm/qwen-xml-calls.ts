import type { TextCall } from './text-call';

// Qwen3-Coder's tool-call form, inside the same <tool_call> tags as Hermes but with XML, not JSON:
//   <tool_call>
//   <function=execute>
//   <parameter=language>
//   python
//   </parameter>
//   <parameter=code>
//   print(6 * 7)
//   </parameter>
//   </function>
//   </tool_call>
// Values are raw text (code needs no escaping); its template puts a newline after each opening tag and
// before each closing one, which are not part of the value.

const OPENER = '<function=';

/** Whether a <tool_call> body is in this form (or, half-written, could still become it). */
export function isQwenXmlBody(body: string): boolean {
  const start = body.trimStart();
  return start.startsWith(OPENER) || (start.length > 0 && start.length < OPENER.length && OPENER.startsWith(start));
}

/** A value as the tool expects it: numbers, booleans and JSON structures typed, everything else text. */
function typed(name: string, raw: string): unknown {
  // The execute tool's fields are always text, even `42` as code.
  if (name === 'code' || name === 'language') return raw;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' ? raw : value;
  } catch {
    return raw;
  }
}

const trimNewlines = (value: string): string => value.replace(/^\n/, '').replace(/\n$/, '');

/**
 * The calls in a <tool_call> body; null when it is not this form. Half-written (`partial`), a call
 * counts once its name is complete, and its last parameter shows the value written so far.
 */
export function qwenXmlCalls(body: string, partial: boolean): TextCall[] | null {
  const parts = body.split(OPENER).slice(1);
  if (parts.length === 0) return partial ? [] : null;
  const calls: TextCall[] = [];
  for (const part of parts) {
    const nameEnd = part.indexOf('>');
    if (nameEnd < 0) return partial ? calls : null;
    const name = part.slice(0, nameEnd).trim();
    const inner = part.slice(nameEnd + 1).split('</function>')[0] ?? '';
    const args: Record<string, unknown> = {};
    for (const param of inner.split('<parameter=').slice(1)) {
      const keyEnd = param.indexOf('>');
      if (keyEnd < 0) {
        if (partial) break;
        return null;
      }
      const key = param.slice(0, keyEnd).trim();
      const closed = param.indexOf('</parameter>', keyEnd);
      const raw = closed < 0 ? param.slice(keyEnd + 1) : param.slice(keyEnd + 1, closed);
      args[key] = typed(key, trimNewlines(raw));
    }
    if (!name) return partial ? calls : null;
    calls.push({ name, args: JSON.stringify(args) });
  }
  return calls;
}

/** A call written back in this form, for the history. */
export function writeQwenXmlCall(call: TextCall): string {
  let args: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(call.args);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
  } catch {
    // Arguments that were not JSON are written as none; the result the model gets says what went wrong.
  }
  const params = Object.entries(args).map(
    ([key, value]) => `<parameter=${key}>\n${typeof value === 'string' ? value : JSON.stringify(value)}\n</parameter>\n`,
  );
  return `<tool_call>\n<function=${call.name}>\n${params.join('')}</function>\n</tool_call>`;
}
