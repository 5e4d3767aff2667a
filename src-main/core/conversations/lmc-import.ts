import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Conversation, describeIssues, type CellItem, type CellOutput, type ConversationItem } from '@contract';
import { errorMessage } from '@contract/error-message';
import { newCell } from './new-cell';

// Open Interpreter (the Python project) saves conversations as a JSON array of LMC messages:
// {role: user|assistant|computer, type: message|code|console|image|file, format?, content}. Its 0.1
// releases wrote {role, message, language?, code?, output?} instead. Both become items here.

const LmcMessage = z
  .object({
    role: z.enum(['user', 'assistant', 'computer', 'system']),
    type: z.string().optional(),
    format: z.string().nullable().optional(),
    content: z.unknown().optional(),
    // 0.1.x fields
    message: z.string().nullable().optional(),
    language: z.string().nullable().optional(),
    code: z.string().nullable().optional(),
    output: z.string().nullable().optional(),
    function_call: z.unknown().optional(),
  })
  .passthrough();

export interface ImportedConversation {
  title: string | null;
  items: ConversationItem[];
}

/** Characters of an imported output the model is shown (head + tail), like a live run. */
const MODEL_CHARS = 6000;

export function parseConversationFile(text: string): ImportedConversation {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`the file is not JSON: ${errorMessage(err)}`, { cause: err });
  }
  // A conversation this app saved (or exported with %save from an older build).
  if (json && typeof json === 'object' && !Array.isArray(json) && 'items' in json) {
    const parsed = Conversation.safeParse(json);
    if (!parsed.success)
      throw new Error(
        `the file looks like an Open Interpreter Desktop conversation but does not match: ${describeIssues(parsed.error.issues)}`,
      );
    // Its outputs came from a file, not from a run here: their HTML scripts wait for a re-run.
    const items = parsed.data.items.map((item) => (item.kind === 'cell' && item.outputs.length > 0 ? { ...item, imported: true } : item));
    return { title: parsed.data.title, items };
  }
  const list = Array.isArray(json)
    ? json
    : json && typeof json === 'object' && Array.isArray((json as { messages?: unknown }).messages)
      ? (json as { messages: unknown[] }).messages
      : null;
  if (!list) throw new Error('expected a JSON array of Open Interpreter messages ({"role", "type", "content"})');
  const messages = list.map((raw, i) => {
    const parsed = LmcMessage.safeParse(raw);
    if (!parsed.success) throw new Error(`message ${i + 1}: ${describeIssues(parsed.error.issues)}`);
    return parsed.data;
  });
  return { title: null, items: new LmcReader().read(messages) };
}

class LmcReader {
  private readonly items: ConversationItem[] = [];
  private step = randomUUID();
  private stepHasCell = false;
  private lastCell: CellItem | null = null;
  private readonly createdAt = new Date().toISOString();
  private calls = 0;

  read(messages: Array<z.infer<typeof LmcMessage>>): ConversationItem[] {
    for (const m of messages) {
      if (m.type === undefined && (m.message !== undefined || m.code !== undefined || m.output !== undefined)) this.legacy(m);
      else this.lmc(m);
    }
    for (const item of this.items) if (item.kind === 'cell' && item.resultForModel === null) item.resultForModel = '(no output)';
    return this.items;
  }

  private lmc(m: z.infer<typeof LmcMessage>): void {
    const content =
      typeof m.content === 'string' ? m.content : m.content === undefined || m.content === null ? '' : JSON.stringify(m.content);
    const type = m.type ?? 'message';
    if (m.role === 'system') return;
    if (m.role === 'user') {
      if (type === 'message') this.user(content);
      else if (type === 'image' && m.format === 'path') this.user(`[image: ${content}]`);
      else if (type === 'image') this.user('[an image was attached here; it is not part of the import]');
      else if (type === 'file') this.user(`[file: ${content}]`);
      return;
    }
    if (m.role === 'assistant') {
      if (type === 'message') this.assistant(content);
      else if (type === 'code') this.cell(m.format ?? 'python', content);
      return;
    }
    // computer
    if (type === 'console' && (m.format === 'output' || m.format === undefined || m.format === null)) this.output(content);
    else if (type === 'image' && m.format?.startsWith('base64')) this.image(m.format, content);
    else if (type === 'code' || (type === 'console' && m.format === 'active_line')) return;
  }

  private legacy(m: z.infer<typeof LmcMessage>): void {
    if (m.role === 'user') {
      if (m.message) this.user(m.message);
      return;
    }
    if (m.role !== 'assistant') return;
    if (m.message) this.assistant(m.message);
    if (m.code) this.cell(m.language ?? 'python', m.code);
    if (m.output) this.output(m.output);
  }

  private user(text: string): void {
    const last = this.items.at(-1);
    // LMC splits one user turn into several messages (text, then files): keep them as one message.
    if (last?.kind === 'user') {
      last.text = last.text ? `${last.text}\n${text}` : text;
      return;
    }
    this.items.push({ kind: 'user', id: randomUUID(), text, attachments: [], createdAt: this.createdAt });
    this.newStep();
  }

  private assistant(text: string): void {
    if (this.stepHasCell) this.newStep();
    const last = this.items.at(-1);
    if (last?.kind === 'assistant' && last.step === this.step) {
      last.text += text;
      return;
    }
    this.items.push({
      kind: 'assistant',
      id: randomUUID(),
      step: this.step,
      text,
      thinking: [],
      interrupted: false,
      createdAt: this.createdAt,
    });
  }

  private cell(language: string, code: string): void {
    if (this.stepHasCell) this.newStep();
    const cell = newCell({
      id: randomUUID(),
      step: this.step,
      toolCallId: `imported_${++this.calls}`,
      language: language.toLowerCase(),
      code,
      status: 'done',
    });
    this.items.push(cell);
    this.lastCell = cell;
    this.stepHasCell = true;
  }

  private output(text: string): void {
    const cell = this.lastCell;
    if (!cell) return;
    const previous = cell.outputs.at(-1);
    if (previous?.output_type === 'stream' && previous.name === 'stdout') previous.text += text;
    else cell.outputs.push({ output_type: 'stream', name: 'stdout', text });
    const all = (cell.resultForModel ?? '') + text;
    cell.resultForModel =
      all.length > MODEL_CHARS ? `${all.slice(0, MODEL_CHARS / 2)}\n[… output shortened …]\n${all.slice(-MODEL_CHARS / 2)}` : all;
  }

  private image(format: string, base64: string): void {
    const cell = this.lastCell;
    if (!cell) return;
    const mime = `image/${format.slice('base64.'.length) || 'png'}`;
    const output: CellOutput = { output_type: 'display_data', data: { [mime]: base64, 'text/plain': '<image>' }, metadata: {} };
    cell.outputs.push(output);
    cell.resultForModel ??= '[an image was displayed]';
  }

  private newStep(): void {
    this.step = randomUUID();
    this.stepHasCell = false;
  }
}
