import type { AssistantItem, CellItem, Conversation, TextCallDialect } from '@contract';
import type { EventBus } from '../../bridge/event-bus';
import { languageFromName } from '../../llm/mcp-names';
import { skillLanguage } from '../../llm/skill-tools';
import { planLanguage } from '../../llm/plan-tools';
import { DELEGATE_LANGUAGE, DELEGATE_TOOL } from '../../llm/delegate-tool';
import { SCHEDULE_LANGUAGE, SCHEDULE_TOOL } from '../../llm/schedule-tool';
import { newCell } from '../../conversations/new-cell';
import { newId, now } from '../ids';
import { peekExecuteArgs } from './tool-call-assembler';
import { addItem } from '../conversation-changes';

export interface StepCall {
  cell: CellItem;
  /** The tool the model called (fenced blocks count as the execute tool). */
  name: string;
  /** The raw tool arguments, to be parsed strictly; null for a fenced block (its code is final). */
  args: string | null;
}

/**
 * What one model call adds to the conversation, each change sent as its event at once so the UI
 * shows it live: prose into assistant items, thinking into the open item, code into cells. The
 * reply's parsers (reply-stage.ts) decide which text is which; nothing here runs code.
 */
export class StepWriter {
  /** Cells in the order the model wrote them. */
  readonly calls: StepCall[] = [];
  readonly assistants: AssistantItem[] = [];
  private assistant: AssistantItem | null = null;
  private readonly step = newId();
  // Provider block index → position in the open item's `thinking`, while the block streams.
  private readonly liveThinking = new Map<number, number>();

  constructor(
    private readonly conv: Conversation,
    private readonly events: EventBus,
  ) {}

  /** The assistant item text is streaming into, if one is open. */
  get openItem(): AssistantItem | null {
    return this.assistant;
  }

  text(text: string): void {
    if (!text) return;
    const item = this.openAssistant();
    item.text += text;
    this.events.emit('assistant.delta', { conversationId: this.conv.id, itemId: item.id, text });
  }

  thinkingDelta(index: number, text: string): void {
    const item = this.openAssistant();
    let block = this.liveThinking.get(index);
    if (block === undefined) {
      block = item.thinking.push({ thinking: '', signature: '' }) - 1;
      this.liveThinking.set(index, block);
    }
    const entry = item.thinking[block];
    if (entry) entry.thinking += text;
    this.events.emit('assistant.thinking-delta', { conversationId: this.conv.id, itemId: item.id, block, text });
  }

  /** The whole signed block replaces what streamed (they are the same text); redacted blocks only come whole. */
  thinking(index: number | undefined, thinking: string, signature: string): void {
    const item = this.openAssistant();
    const block = index === undefined ? undefined : this.liveThinking.get(index);
    if (index !== undefined) this.liveThinking.delete(index);
    if (block !== undefined && item.thinking[block]) item.thinking[block] = { thinking, signature };
    else item.thinking.push({ thinking, signature });
  }

  /** A new cell for code the model is writing (text after it goes into a new assistant item). */
  addCell(toolCallId: string | null, language: string, callDialect?: TextCallDialect): CellItem {
    this.closeAssistant();
    const cell: CellItem = {
      ...newCell({ id: newId(), step: this.step, toolCallId, language, code: '', status: 'streaming' }),
      ...(callDialect ? { callDialect } : {}),
    };
    addItem(this.conv, this.events, cell);
    return cell;
  }

  /** A cell the model called a tool with: it runs once the reply is over. */
  addCall(call: StepCall): StepCall {
    this.calls.push(call);
    return call;
  }

  showCode(cell: CellItem, language: string, code: string): void {
    if (code === cell.code && language === cell.language) return;
    cell.code = code;
    cell.language = language;
    this.events.emit('cell.code', { conversationId: this.conv.id, cellId: cell.id, language, code });
  }

  /** An MCP call shows as its tool (`mcp:<server>/<tool>`), a skill call as `skill:load` / `skill:read`, with the JSON arguments as its code. */
  showCall(cell: CellItem, name: string, args: string): void {
    const tagged =
      languageFromName(name) ??
      skillLanguage(name) ??
      planLanguage(name) ??
      (name === DELEGATE_TOOL ? DELEGATE_LANGUAGE : name === SCHEDULE_TOOL ? SCHEDULE_LANGUAGE : null);
    if (tagged) return this.showCode(cell, tagged, args);
    const peek = peekExecuteArgs(args);
    this.showCode(cell, peek.language, peek.code);
  }

  /** The reply is over: the last item is marked cut off when it was, and the open one is closed. */
  end(interrupted: boolean): void {
    const last = this.assistants.at(-1);
    if (last && interrupted) last.interrupted = true;
    if (this.assistant) this.closeAssistant();
    else if (last && interrupted) this.events.emit('assistant.done', { conversationId: this.conv.id, item: last });
  }

  private openAssistant(): AssistantItem {
    if (!this.assistant) {
      this.assistant = { kind: 'assistant', id: newId(), step: this.step, text: '', thinking: [], interrupted: false, createdAt: now() };
      this.assistants.push(this.assistant);
      addItem(this.conv, this.events, this.assistant);
    }
    return this.assistant;
  }

  // Text after a cell goes into a new assistant item, so items keep the order the model wrote them in.
  private closeAssistant(): void {
    if (this.assistant) this.events.emit('assistant.done', { conversationId: this.conv.id, item: this.assistant });
    this.assistant = null;
    this.liveThinking.clear();
  }
}
