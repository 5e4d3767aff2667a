import type { AssistantItem, CellItem, Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import { executeTool } from '../llm/execute-tool';
import type { Provider } from '../llm/provider';
import { newId, now } from './ids';
import type { LiveConversation } from './live-conversation';
import { buildSystemPrompt } from './system-prompt';
import { peekExecuteArgs, ToolCallAssembler } from './tool-call-assembler';

export interface StepOutcome {
  assistant: AssistantItem | null;
  /** Cells in call order, with the raw arguments the model sent. */
  calls: Array<{ cell: CellItem; args: string }>;
  /** True when the stream ended early (stop, or a broken connection); partial text is kept. */
  interrupted: boolean;
  error: unknown;
}

/**
 * One model call: streams text into an assistant item and tool calls into cells as they are written,
 * so the UI shows both live. Nothing here runs code.
 */
export async function streamStep(
  live: LiveConversation,
  deps: { provider: Provider; events: EventBus; settings: Settings },
  signal: AbortSignal,
): Promise<StepOutcome> {
  const { conv } = live;
  const conversationId = conv.id;
  const step = newId();
  const assembler = new ToolCallAssembler();
  const cellsByIndex = new Map<number, CellItem>();
  let assistant: AssistantItem | null = null;
  const outcome: StepOutcome = { assistant: null, calls: [], interrupted: false, error: null };

  const ensureAssistant = (): AssistantItem => {
    if (!assistant) {
      assistant = { kind: 'assistant', id: newId(), step, text: '', thinking: [], interrupted: false, createdAt: now() };
      conv.items.push(assistant);
      deps.events.emit('item.added', { conversationId, item: assistant });
    }
    return assistant;
  };

  try {
    const stream = deps.provider.stream({
      model: deps.settings.model,
      system: buildSystemPrompt({ workspace: conv.workspace, customInstructions: deps.settings.customInstructions, toolCalling: true }),
      items: conv.items.slice(),
      tools: [executeTool],
      temperature: deps.settings.temperature,
      maxOutputTokens: deps.settings.maxOutputTokens,
      signal,
    });
    for await (const ev of stream) {
      switch (ev.type) {
        case 'text': {
          const item = ensureAssistant();
          item.text += ev.text;
          deps.events.emit('assistant.delta', { conversationId, itemId: item.id, text: ev.text });
          break;
        }
        case 'thinking':
          ensureAssistant().thinking.push({ thinking: ev.thinking, signature: ev.signature });
          break;
        case 'tool-call-start': {
          assembler.start(ev.index, ev.id, ev.name);
          const cell: CellItem = {
            kind: 'cell', id: newId(), step, toolCallId: ev.id, language: '', code: '', status: 'streaming',
            approval: null, outputs: [], exitCode: null, durationMs: null, executionCount: null, startedAt: null,
            limits: null, resultForModel: null,
          };
          cellsByIndex.set(ev.index, cell);
          conv.items.push(cell);
          deps.events.emit('item.added', { conversationId, item: cell });
          break;
        }
        case 'tool-call-delta': {
          const call = assembler.append(ev.index, ev.argumentsDelta);
          const cell = cellsByIndex.get(ev.index);
          if (!call || !cell) break;
          const peek = peekExecuteArgs(call.args);
          if (peek.code !== cell.code || peek.language !== cell.language) {
            cell.code = peek.code;
            cell.language = peek.language;
            deps.events.emit('cell.code', { conversationId, cellId: cell.id, language: cell.language, code: cell.code });
          }
          break;
        }
        case 'usage':
          conv.usage.inputTokens += ev.inputTokens;
          conv.usage.outputTokens += ev.outputTokens;
          break;
        case 'done':
          break;
      }
    }
    // The SDKs end a cancelled stream quietly, without an error: only the signal tells.
    if (signal.aborted) outcome.interrupted = true;
  } catch (err) {
    outcome.interrupted = true;
    outcome.error = signal.aborted ? null : err;
  }
  if (assistant) {
    const finished: AssistantItem = assistant;
    finished.interrupted = outcome.interrupted;
    deps.events.emit('assistant.done', { conversationId, item: finished });
  }
  outcome.assistant = assistant;
  outcome.calls = assembler.all().flatMap((call) => {
    const cell = cellsByIndex.get(call.index);
    return cell ? [{ cell, args: call.args }] : [];
  });
  return outcome;
}
