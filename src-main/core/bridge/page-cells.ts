import type { AnyEvent, CellItem, CellOutput, Conversation, ConversationItem } from '@contract';
import { SAVED_OUTPUT_MAX_LINES } from '@contract/limits';
import { countRows, rowOffset } from '@contract/output-rows';

// What the page is sent of a finished cell's text: the rows it draws, never the whole output. A block
// of text draws at most SAVED_OUTPUT_MAX_LINES rows (its first and last half); sending it all made
// the run's end one task of half a second on the page for a million-line print (issue 25 item 13:
// parsing the 6.9 MB message, then swapping it into the page's state). So both transports pass every
// event and every answer through here: each block past the limit keeps its head and its tail, and an
// empty marker between says how many rows it leaves out; `cell.output-rows` sends them on request.
// The saved conversation, exports, the CLI and the model still get the whole cell.

type StreamOutput = Extract<CellOutput, { output_type: 'stream' }>;

const HALF = SAVED_OUTPUT_MAX_LINES / 2;

/** Consecutive stream outputs, drawn as one block (as the page groups them), merged by kind. */
interface TextBlock {
  /** Outputs [start, end) of the cell. */
  start: number;
  end: number;
  parts: StreamOutput[];
  counts: number[];
  total: number;
}

/** Where in the outputs a failed first attempt ends: the page draws it and the re-run as blocks apart. */
function splitOf(cell: CellItem): number {
  return cell.firstAttempt ? Math.min(cell.firstAttempt.outputs, cell.outputs.length) : 0;
}

const kindOf = (o: StreamOutput): string => (o.appNote ? 'note' : o.name);

function textBlocks(outputs: CellOutput[], split: number): TextBlock[] {
  const blocks: TextBlock[] = [];
  let open: TextBlock | null = null;
  outputs.forEach((o, i) => {
    if (o.output_type !== 'stream' || i === split) open = null;
    if (o.output_type !== 'stream') return;
    if (!open) {
      open = { start: i, end: i, parts: [], counts: [], total: 0 };
      blocks.push(open);
    }
    open.end = i + 1;
    if (!o.text) return;
    const last = open.parts.at(-1);
    if (last && kindOf(last) === kindOf(o)) last.text += o.text;
    else open.parts.push({ output_type: 'stream', name: o.name, text: o.text, ...(o.appNote ? { appNote: true as const } : {}) });
  });
  for (const b of blocks) {
    b.counts = b.parts.map((p) => countRows(p.text));
    b.total = b.counts.reduce((a, c) => a + c, 0);
  }
  return blocks;
}

/** Rows [from, to) of a block, as stream outputs of the same kinds. */
function rowsOf(block: TextBlock, from: number, to: number): StreamOutput[] {
  const out: StreamOutput[] = [];
  let seen = 0;
  block.parts.forEach((part, i) => {
    const n = block.counts[i] ?? 0;
    const a = Math.max(from, seen) - seen;
    const b = Math.min(to, seen + n) - seen;
    seen += n;
    if (a < b) out.push({ ...part, text: part.text.slice(rowOffset(part.text, a), rowOffset(part.text, b)) });
  });
  return out;
}

const cutBlocks = (cell: CellItem): TextBlock[] => textBlocks(cell.outputs, splitOf(cell)).filter((b) => b.total > SAVED_OUTPUT_MAX_LINES);

/** The cell as the page is sent it: each text block past the limit cut to its head and tail. The same object when none is. */
export function cellForPage(cell: CellItem): CellItem {
  const cuts = cutBlocks(cell);
  if (cuts.length === 0) return cell;
  const split = splitOf(cell);
  const outputs: CellOutput[] = [];
  let next = 0;
  let newSplit = split;
  for (const block of cuts) {
    outputs.push(...cell.outputs.slice(next, block.start));
    const marker: StreamOutput = { output_type: 'stream', name: 'stdout', text: '', rowsLeftOut: block.total - SAVED_OUTPUT_MAX_LINES };
    const kept = [...rowsOf(block, 0, HALF), marker, ...rowsOf(block, block.total - HALF, block.total)];
    outputs.push(...kept);
    if (block.end <= split) newSplit += kept.length - (block.end - block.start);
    next = block.end;
  }
  outputs.push(...cell.outputs.slice(next));
  return { ...cell, outputs, ...(cell.firstAttempt ? { firstAttempt: { ...cell.firstAttempt, outputs: newSplit } } : {}) };
}

const itemForPage = (item: ConversationItem): ConversationItem => (item.kind === 'cell' ? cellForPage(item) : item);

function conversationForPage(conv: Conversation): Conversation {
  const items = conv.items.map(itemForPage);
  return items.every((item, i) => item === conv.items[i]) ? conv : { ...conv, items };
}

/** An event as the page is sent it. */
export function eventForPage(event: AnyEvent): AnyEvent {
  switch (event.name) {
    case 'cell.done':
      return { ...event, payload: { ...event.payload, cell: cellForPage(event.payload.cell) } };
    case 'cell.awaiting-approval':
      return { ...event, payload: { ...event.payload, cell: cellForPage(event.payload.cell) } };
    case 'item.added':
      return { ...event, payload: { ...event.payload, item: itemForPage(event.payload.item) } };
    default:
      return event;
  }
}

const isConversation = (v: unknown): v is Conversation =>
  typeof v === 'object' && v !== null && (v as { version?: unknown }).version === 1 && Array.isArray((v as { items?: unknown }).items);

/** A request's answer as the page is sent it: a conversation (alone, or as `conversation` of the answer) with its cells cut. */
export function resultForPage(result: unknown): unknown {
  if (isConversation(result)) return conversationForPage(result);
  if (typeof result === 'object' && result !== null && isConversation((result as { conversation?: unknown }).conversation)) {
    const withConv = result as { conversation: Conversation };
    return { ...withConv, conversation: conversationForPage(withConv.conversation) };
  }
  return result;
}

/** `cell.output-rows`: `count` rows of the cell's `cut`-th left-out stretch, after the first `from` of it. */
export function outputRows(
  conv: Conversation,
  cellId: string,
  cut: number,
  from: number,
  count: number,
): { outputs: StreamOutput[]; rowsLeft: number } {
  const cell = conv.items.find((i): i is CellItem => i.kind === 'cell' && i.id === cellId);
  if (!cell) throw new Error('this cell is no longer in the conversation');
  const block = cutBlocks(cell)[cut];
  if (!block) throw new Error('this output has no more rows left out');
  const end = block.total - HALF;
  const a = Math.min(end, HALF + from);
  const b = Math.min(end, a + count);
  return { outputs: rowsOf(block, a, b), rowsLeft: end - b };
}
