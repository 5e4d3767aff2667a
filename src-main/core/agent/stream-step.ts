import type { AssistantItem, CellItem } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import { findLanguage } from '../exec';
import { EXECUTE_TOOL_NAME } from '../llm/execute-tool';
import { costOf, type ModelInfo } from '../llm/model-catalog';
import type { Provider, ProviderRequest } from '../llm/provider';
import { classifyFailure } from '../llm/provider-errors';
import { streamWithRetries, type RetryNotice, type RetryPolicy } from '../llm/retry-with-backoff';
import type { TokenCounter } from '../llm/token-counter';
import { languageFromName } from '../llm/mcp-names';
import { skillLanguage } from '../llm/skill-tools';
import { planLanguage } from '../llm/plan-tools';
import { DELEGATE_LANGUAGE, DELEGATE_TOOL } from '../llm/delegate-tool';
import { fencedDialectOf } from './answer-dialect';
import { FencedCodeParser } from './fenced-code-parser';
import { TextCallParser, type TextCallEvent } from './text-call-parser';
import { newId, now } from './ids';
import type { LiveConversation } from './live-conversation';
import { peekExecuteArgs, ToolCallAssembler } from './tool-call-assembler';
import { newCell } from '../conversations/new-cell';
import { linkedAbort } from './linked-abort';

export interface StepCall {
  cell: CellItem;
  /** The tool the model called (fenced blocks count as the execute tool). */
  name: string;
  /** The raw tool arguments, to be parsed strictly; null for a fenced block (its code is final). */
  args: string | null;
}

export interface StepOutcome {
  /** Cells in the order the model wrote them. */
  calls: StepCall[];
  /** True when the stream ended early (stop, or a broken connection); partial text is kept. */
  interrupted: boolean;
  error: unknown;
  /** The provider refused the tool definition before anything streamed (the caller retries without). */
  toolsRefused: boolean;
  /** The reply's text as the model wrote it (calls written as text included). */
  text: string;
}

export interface StepDeps {
  provider: Provider;
  events: EventBus;
  retry: RetryPolicy;
  info: ModelInfo;
  counter: TokenCounter;
  /** Estimated prompt tokens, billed when the provider reports no usage. */
  promptTokens: number;
  /** In fenced-code mode: the MCP tools by the fence tag that calls them (`mcp:<server>/<tool>` → name). */
  fencedTools?: Map<string, string>;
  /**
   * A local model no probe has asked about: a reply with no tool call but a runnable fenced block was
   * written in the fenced dialect (answer-dialect.ts), and its blocks become cells when it ends.
   */
  dialectFromAnswer?: boolean;
  onRetry(notice: RetryNotice): void;
}

/**
 * One model call: streams text into assistant items and code (tool calls, or fenced blocks when no
 * tools were sent) into cells as they are written, so the UI shows both live. Nothing here runs code.
 */
export async function streamStep(
  live: LiveConversation,
  request: Omit<ProviderRequest, 'signal'>,
  deps: StepDeps,
  signal: AbortSignal,
): Promise<StepOutcome> {
  const { conv } = live;
  const conversationId = conv.id;
  const step = newId();
  const assembler = new ToolCallAssembler();
  const toolCells = new Map<number, CellItem>();
  const fencedTools = deps.fencedTools ?? new Map<string, string>();
  const runnableFence = (info: string) => findLanguage(info)?.name ?? (fencedTools.has(info) ? info : null);
  const fenced = request.tools.length === 0 ? new FencedCodeParser(runnableFence) : null;
  // Calls a local model writes as text (its own dialect) run too, unless the server sends native calls.
  const offered = new Set([EXECUTE_TOOL_NAME, ...request.tools.map((t) => t.name)]);
  let textCalls: TextCallParser | null = new TextCallParser((name) => offered.has(name));
  const textCallCells = new Map<number, StepCall[]>();
  const calls: StepCall[] = [];
  const assistants: AssistantItem[] = [];
  let assistant: AssistantItem | null = null;
  let fencedCell: CellItem | null = null;
  let produced = '';
  let usageSeen = false;
  const outcome: StepOutcome = { calls, interrupted: false, error: null, toolsRefused: false, text: '' };

  const openAssistant = (): AssistantItem => {
    if (!assistant) {
      assistant = { kind: 'assistant', id: newId(), step, text: '', thinking: [], interrupted: false, createdAt: now() };
      assistants.push(assistant);
      conv.items.push(assistant);
      deps.events.emit('item.added', { conversationId, item: assistant });
    }
    return assistant;
  };
  const addText = (text: string) => {
    if (!text) return;
    const item = openAssistant();
    item.text += text;
    deps.events.emit('assistant.delta', { conversationId, itemId: item.id, text });
  };
  // Provider block index → position in the open item's `thinking`, while the block streams.
  const liveThinking = new Map<number, number>();
  const addThinking = (index: number, text: string) => {
    const item = openAssistant();
    let block = liveThinking.get(index);
    if (block === undefined) {
      block = item.thinking.push({ thinking: '', signature: '' }) - 1;
      liveThinking.set(index, block);
    }
    const entry = item.thinking[block];
    if (entry) entry.thinking += text;
    deps.events.emit('assistant.thinking-delta', { conversationId, itemId: item.id, block, text });
  };
  // The whole signed block replaces what streamed (they are the same text); redacted blocks only come whole.
  const endThinking = (index: number | undefined, thinking: string, signature: string) => {
    const item = openAssistant();
    const block = index === undefined ? undefined : liveThinking.get(index);
    if (index !== undefined) liveThinking.delete(index);
    if (block !== undefined && item.thinking[block]) item.thinking[block] = { thinking, signature };
    else item.thinking.push({ thinking, signature });
  };
  // Text after a cell goes into a new assistant item, so items keep the order the model wrote them in.
  const closeAssistant = () => {
    if (assistant) deps.events.emit('assistant.done', { conversationId, item: assistant });
    assistant = null;
    liveThinking.clear();
  };
  const addCell = (toolCallId: string | null, language: string, callDialect?: CellItem['callDialect']): CellItem => {
    closeAssistant();
    const cell: CellItem = {
      ...newCell({ id: newId(), step, toolCallId, language, code: '', status: 'streaming' }),
      ...(callDialect ? { callDialect } : {}),
    };
    conv.items.push(cell);
    deps.events.emit('item.added', { conversationId, item: cell });
    return cell;
  };
  const showCode = (cell: CellItem, language: string, code: string) => {
    if (code === cell.code && language === cell.language) return;
    cell.code = code;
    cell.language = language;
    deps.events.emit('cell.code', { conversationId, cellId: cell.id, language, code });
  };
  // An MCP call shows as its tool (`mcp:<server>/<tool>`), a skill call as `skill:load` / `skill:read`, with the JSON arguments as its code.
  const showCall = (cell: CellItem, name: string, args: string) => {
    const tagged =
      languageFromName(name) ?? skillLanguage(name) ?? planLanguage(name) ?? (name === DELEGATE_TOOL ? DELEGATE_LANGUAGE : null);
    if (tagged) return showCode(cell, tagged, args);
    const peek = peekExecuteArgs(args);
    showCode(cell, peek.language, peek.code);
  };
  const onFenceText = (text: string) => {
    if (!fenced) return addText(text);
    for (const ev of fenced.feed(text)) applyFence(ev);
  };
  const applyTextCalls = (events: TextCallEvent[]) => {
    for (const ev of events) {
      if (ev.type === 'text') {
        onFenceText(ev.text);
        continue;
      }
      const cells = textCallCells.get(ev.block) ?? [];
      textCallCells.set(ev.block, cells);
      ev.calls.forEach((call, i) => {
        let entry = cells[i];
        if (!entry) {
          entry = { cell: addCell(null, '', ev.dialect), name: call.name, args: call.args };
          cells.push(entry);
          calls.push(entry);
        }
        entry.name = call.name;
        entry.args = call.args;
        showCall(entry.cell, call.name, call.args);
      });
    }
  };
  const endTextCalls = () => {
    if (textCalls) applyTextCalls(textCalls.finish());
    textCalls = null;
  };
  const applyFence = (ev: ReturnType<FencedCodeParser['feed']>[number]) => {
    switch (ev.type) {
      case 'text':
        addText(ev.text);
        break;
      case 'code-start':
        fencedCell = addCell(null, ev.language);
        calls.push({ cell: fencedCell, name: fencedTools.get(ev.language) ?? EXECUTE_TOOL_NAME, args: null });
        break;
      case 'code':
        if (fencedCell) showCode(fencedCell, fencedCell.language, ev.code);
        break;
      case 'code-end':
        if (fencedCell) showCode(fencedCell, ev.language, ev.code);
        fencedCell = null;
        break;
    }
  };

  // The reply streamed as prose into one open item; it now ends at its first block, and the blocks
  // and the prose between them follow as cells and items, as if fenced mode had parsed it live.
  const fencedAfterAll = () => {
    const open = assistant;
    const events = open ? fencedDialectOf(open.text, runnableFence) : null;
    if (!open || !events) return;
    open.text = '';
    let before = true;
    for (const ev of events) {
      before &&= ev.type === 'text';
      // Already shown (streamed); assistant.done sends the shortened item.
      if (before && ev.type === 'text') open.text += ev.text;
      else applyFence(ev);
    }
  };

  // The call's own signal, so what the SDK leaves listening on it goes when the call is over.
  const call = linkedAbort(signal);
  try {
    const callSignal = call.controller.signal;
    const stream = streamWithRetries(() => deps.provider.stream({ ...request, signal: callSignal }), deps.retry, signal, deps.onRetry);
    for await (const ev of stream) {
      switch (ev.type) {
        case 'text':
          produced += ev.text;
          outcome.text += ev.text;
          if (textCalls) applyTextCalls(textCalls.feed(ev.text));
          else onFenceText(ev.text);
          break;
        case 'thinking-delta':
          addThinking(ev.index, ev.text);
          break;
        case 'thinking':
          endThinking(ev.index, ev.thinking, ev.signature);
          break;
        case 'tool-call-start': {
          // The server parses calls itself: whatever text was held back is prose after all.
          endTextCalls();
          assembler.start(ev.index, ev.id, ev.name);
          const cell = addCell(ev.id, '');
          toolCells.set(ev.index, cell);
          calls.push({ cell, name: ev.name, args: '' });
          break;
        }
        case 'tool-call-delta': {
          const call = assembler.append(ev.index, ev.argumentsDelta);
          const cell = toolCells.get(ev.index);
          produced += ev.argumentsDelta;
          if (!call || !cell) break;
          const entry = calls.find((c) => c.cell === cell);
          if (entry) entry.args = call.args;
          showCall(cell, entry?.name ?? EXECUTE_TOOL_NAME, call.args);
          break;
        }
        case 'usage':
          usageSeen = true;
          addUsage(live, deps.info, ev.inputTokens, ev.outputTokens);
          break;
        case 'done':
          break;
      }
    }
    endTextCalls();
    for (const ev of fenced?.finish() ?? []) applyFence(ev);
    if (deps.dialectFromAnswer && !fenced && calls.length === 0 && !signal.aborted) fencedAfterAll();
    // The SDKs end a cancelled stream quietly, without an error: only the signal tells.
    if (signal.aborted) outcome.interrupted = true;
  } catch (err) {
    const nothingYet = calls.length === 0 && assistants.length === 0;
    if (!signal.aborted && nothingYet && request.tools.length > 0 && classifyFailure(err).kind === 'tools-refused') {
      outcome.toolsRefused = true;
      outcome.error = err;
      return outcome;
    }
    // Text held back as a possible call is still the model's text; a half-written call is cut off.
    endTextCalls();
    outcome.interrupted = true;
    outcome.error = signal.aborted ? null : err;
  } finally {
    call.release();
  }
  if (!usageSeen && produced) {
    // Local servers often report nothing; an estimate keeps %tokens and the budget meaningful.
    addUsage(live, deps.info, deps.promptTokens, deps.counter.count(produced));
  }
  const last = assistants.at(-1);
  if (last && outcome.interrupted) last.interrupted = true;
  if (assistant) closeAssistant();
  else if (last && outcome.interrupted) deps.events.emit('assistant.done', { conversationId, item: last });
  return outcome;
}

function addUsage(live: LiveConversation, info: ModelInfo, inputTokens: number, outputTokens: number): void {
  const usage = live.conv.usage;
  usage.inputTokens += inputTokens;
  usage.outputTokens += outputTokens;
  usage.costUsd += costOf(info, inputTokens, outputTokens) ?? 0;
}
