import type { ConversationItem } from '@contract';
import { recentScreenshots } from '../computer/screenshot-history';
import { IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS, type TokenCounter } from '../llm/token-counter';

export interface FitInput {
  items: ConversationItem[];
  /** Tokens the history may take: the window minus the output reserve, system prompt and tools. */
  budget: number;
  counter: TokenCounter;
  /** Whether image attachments are sent (they cost tokens only then). */
  images: boolean;
  /** Characters a shortened run result keeps (head + tail). */
  trimmedOutputChars: number;
}

export interface FitResult {
  items: ConversationItem[];
  /** Estimated tokens of the fitted history. */
  tokens: number;
  trimmedOutputs: number;
  /** User messages shortened because even the turns left were over the window (a huge paste). */
  trimmedMessages: number;
  droppedTurns: number;
  /** True when even the newest turn alone is over the budget (the call may fail). */
  overBudget: boolean;
  /** Estimated tokens of the whole history, before anything was shortened or left out. */
  fullTokens: number;
}

/**
 * Fits history into the model's window before a call, cheapest loss first: long run outputs are
 * shortened (oldest first), then whole turns are dropped from the start — a turn is a user message
 * with everything the agent did for it, so tool calls never lose their results. The newest turn is
 * never dropped (it holds the question being answered); the system prompt is not part of `items`.
 * The conversation itself is not changed: trimmed cells are copies.
 */
export function fitHistory(input: FitInput): FitResult {
  const { counter } = input;
  // The latest screenshots go back with their computer calls (screenshot-history.ts): each costs its
  // image tokens on top of its text, as much as a long run output would.
  const shots = input.images ? screenshotCosts(input.items) : new Map<string, number>();
  const costOf = (item: ConversationItem): number =>
    item.kind === 'cell' && item.fromCell
      ? 0
      : MESSAGE_OVERHEAD_TOKENS + itemTokens(item, counter, input.images) + (shots.get(item.id) ?? 0);
  const items = input.items.slice();
  const costs = items.map(costOf);
  let total = costs.reduce((a, b) => a + b, 0);
  const fullTokens = total;
  const replace = (i: number, item: ConversationItem) => {
    items[i] = item;
    const cost = costOf(item);
    total += cost - (costs[i] ?? 0);
    costs[i] = cost;
  };
  const trimFrom = (from: number, to: number) => {
    for (let i = from; i < to && total > input.budget; i++) {
      const item = items[i];
      if (item?.kind !== 'cell' || item.resultForModel === null || item.resultForModel.length <= input.trimmedOutputChars) continue;
      replace(i, { ...item, resultForModel: shorten(item.resultForModel, input.trimmedOutputChars) });
    }
  };

  const starts = turnStarts(items);
  const newest = starts.at(-1) ?? 0;
  // 1. Shorten outputs of older turns, oldest first.
  trimFrom(0, newest);
  // 2. Drop whole turns from the start.
  let from = 0;
  let droppedTurns = 0;
  for (const start of starts.slice(1)) {
    if (total <= input.budget) break;
    for (let i = from; i < start; i++) total -= costs[i] ?? 0;
    from = start;
    droppedTurns++;
  }
  // 3. Outputs shortened in step 1 whose turn survived get their full text back, newest first, while
  //    there is room: the recent results are the ones the model most needs whole.
  for (let i = newest - 1; i >= from; i--) {
    const original = input.items[i];
    if (!original || items[i] === original) continue;
    const cost = costOf(original);
    if (total - (costs[i] ?? 0) + cost > input.budget) continue;
    replace(i, original);
  }
  // 4. Shorten the newest turn's own outputs.
  trimFrom(newest, items.length);
  // 5. Last resort: shorten the user's messages that are left, longest first, keeping their head and
  //    tail. Sent whole, a server such as Ollama would cut the prompt from the front without a word,
  //    system prompt first; this way the model keeps its instructions and the person is told.
  let trimmedMessages = 0;
  const users = [...items.keys()].filter((i) => i >= from && items[i]?.kind === 'user').sort((a, b) => (costs[b] ?? 0) - (costs[a] ?? 0));
  for (const i of users) {
    const item = items[i];
    if (total <= input.budget || item?.kind !== 'user') break;
    const shortened = shortenToFit(item.text, counter, total - input.budget, input.trimmedOutputChars);
    if (shortened === null) continue;
    replace(i, { ...item, text: shortened });
    trimmedMessages++;
  }
  let trimmedOutputs = 0;
  for (let i = from; i < items.length; i++) if (items[i] !== input.items[i] && items[i]?.kind === 'cell') trimmedOutputs++;
  return {
    items: items.slice(from),
    tokens: total,
    trimmedOutputs,
    trimmedMessages,
    droppedTurns,
    overBudget: total > input.budget,
    fullTokens,
  };
}

function turnStarts(items: ConversationItem[]): number[] {
  const starts = [0];
  items.forEach((item, i) => {
    if (item.kind === 'user' && i > 0) starts.push(i);
  });
  return starts;
}

/** Head and tail survive: the head says what started, the tail holds the error or the result. */
function shorten(text: string, chars: number): string {
  const head = Math.floor(chars * 0.4);
  const tail = chars - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${cut} characters left out to fit the context window …]\n${text.slice(-tail)}`;
}

/**
 * The text made `excess` tokens shorter (head and tail kept, as `shorten` does), never below `floor`
 * characters; null when it is already that short. Characters per token are taken from the text itself.
 */
function shortenToFit(text: string, counter: TokenCounter, excess: number, floor: number): string | null {
  const tokens = counter.count(text);
  if (text.length <= floor || tokens <= 0) return null;
  // A little more than the excess: the marker and the estimate's error must fit too.
  const keepTokens = Math.max(0, tokens - excess - 64);
  const chars = Math.max(floor, Math.floor((text.length * keepTokens) / tokens));
  return chars >= text.length ? null : shorten(text, chars);
}

export function itemTokens(item: ConversationItem, counter: TokenCounter, images: boolean): number {
  switch (item.kind) {
    case 'user':
      return counter.count(item.text) + attachmentTokens(item.attachments, images);
    case 'assistant':
      return (
        counter.count(item.text) + item.thinking.reduce((sum, t) => sum + counter.count(t.thinking) + Math.ceil(t.signature.length / 4), 0)
      );
    case 'cell':
      // A screen action the code asked for is not sent (its code cell's output tells of it).
      if (item.fromCell) return 0;
      return counter.count(item.code) + counter.count(item.resultForModel ?? '') + 16;
    case 'notice':
      return 0;
  }
}

function attachmentTokens(attachments: Array<{ mime: string }>, images: boolean): number {
  // Named attachments cost a line of text; images cost their image tokens when they are sent.
  return attachments.reduce((sum, a) => sum + 40 + (images && a.mime.startsWith('image/') ? IMAGE_TOKENS : 0), 0);
}

/**
 * The image tokens of the screenshots sent with their calls, by cell: Anthropic's measure (width ×
 * height / 750) of the size the screenshot was sent at; OpenAI's tiles come to about the same for a
 * screen. Counted for the latest ones of the whole history: dropping old turns never removes those.
 */
function screenshotCosts(items: readonly ConversationItem[]): Map<string, number> {
  const costs = new Map<string, number>();
  const sent = recentScreenshots(items);
  for (const item of items) {
    if (item.kind !== 'cell' || !sent.has(item.id)) continue;
    const size = item.outputs.find((o) => o.output_type === 'display_data')?.metadata?.computer as
      { width?: number; height?: number } | undefined;
    costs.set(item.id, size?.width && size.height ? Math.ceil((size.width * size.height) / 750) : IMAGE_TOKENS);
  }
  return costs;
}
