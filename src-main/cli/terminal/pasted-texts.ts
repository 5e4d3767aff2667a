/** Longer than this, a one-line paste is shown as a placeholder too (a 3 MB line would fill the screen). */
const LONG_LINE = 2000;

/**
 * Pastes of several lines stand in the line being typed as a placeholder — "[pasted text #1, 12
 * lines]" — and are put back whole when the line is sent: the line stays one editable line, and the
 * message is exactly what was pasted.
 */
export class PastedTexts {
  private readonly texts = new Map<string, string>();

  /** The text to put in the line for this paste: itself when short and on one line, else a placeholder. */
  keep(text: string): string {
    if (!text.includes('\n') && text.length <= LONG_LINE) return text;
    const lines = text.split('\n').length;
    const token = `[pasted text #${this.texts.size + 1}, ${lines > 1 ? `${lines} lines` : `${text.length.toLocaleString('en-US')} characters`}]`;
    this.texts.set(token, text);
    return token;
  }

  /** The line as sent: each placeholder still in it replaced by its paste. */
  expand(line: string): string {
    let out = line;
    for (const [token, text] of this.texts) out = out.split(token).join(text);
    return out;
  }
}
