import type { EventBus } from '../bridge/event-bus';
import { Languages } from '../exec';
import { costOf, type ModelInfo } from '../llm/model-catalog';
import type { Provider, ProviderRequest } from '../llm/provider';
import { classifyFailure } from '../llm/provider-errors';
import { streamWithRetries, type RetryNotice, type RetryPolicy } from '../llm/retry-with-backoff';
import type { TokenCounter } from '../llm/token-counter';
import type { LiveConversation } from './live-conversation';
import { linkedAbort } from './linked-abort';
import { AnswerDialectStage } from './reply/answer-dialect-stage';
import { FencedStage } from './reply/fenced-stage';
import { NativeCallStage } from './reply/native-call-stage';
import { ProseStage, type ReplyEnd, type ReplyStage } from './reply/reply-stage';
import { StepWriter, type StepCall } from './reply/step-writer';
import { TextCallStage } from './reply/text-call-stage';

export type { StepCall } from './reply/step-writer';

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
 * tools were sent) into cells as they are written, so the UI shows both live. The reply's parsers
 * (reply/) decide what is code; the StepWriter puts it in the conversation. Nothing here runs code.
 */
export async function streamStep(
  live: LiveConversation,
  request: Omit<ProviderRequest, 'signal'>,
  deps: StepDeps,
  signal: AbortSignal,
): Promise<StepOutcome> {
  const writer = new StepWriter(live.conv, deps.events);
  const parsers = replyParsers(writer, request, deps);
  const outcome: StepOutcome = { calls: writer.calls, interrupted: false, error: null, toolsRefused: false, text: '' };
  let produced = '';
  let usageSeen = false;
  let how: ReplyEnd = 'done';
  // The call's own signal, so what the SDK leaves listening on it goes when the call is over.
  const call = linkedAbort(signal);
  try {
    const callSignal = call.controller.signal;
    const stream = streamWithRetries(() => deps.provider.stream({ ...request, signal: callSignal }), deps.retry, signal, deps.onRetry);
    for await (const ev of stream) {
      if (ev.type === 'text') outcome.text += ev.text;
      if (ev.type === 'text' || ev.type === 'tool-call-delta') produced += ev.type === 'text' ? ev.text : ev.argumentsDelta;
      if (ev.type === 'text' || ev.type === 'tool-call-start' || ev.type === 'tool-call-delta') parsers.push(ev);
      else if (ev.type === 'thinking-delta') writer.thinkingDelta(ev.index, ev.text);
      else if (ev.type === 'thinking') writer.thinking(ev.index, ev.thinking, ev.signature);
      else if (ev.type === 'usage') {
        usageSeen = true;
        addUsage(live, deps.info, ev.inputTokens, ev.outputTokens);
      }
    }
    // The SDKs end a cancelled stream quietly, without an error: only the signal tells.
    if (signal.aborted) how = 'stopped';
  } catch (err) {
    const nothingYet = writer.calls.length === 0 && writer.assistants.length === 0;
    if (!signal.aborted && nothingYet && request.tools.length > 0 && classifyFailure(err).kind === 'tools-refused') {
      outcome.toolsRefused = true;
      outcome.error = err;
      return outcome;
    }
    how = 'broken';
    outcome.error = signal.aborted ? null : err;
  } finally {
    call.release();
  }
  parsers.end(how);
  outcome.interrupted = how !== 'done';
  if (!usageSeen && produced) {
    // Local servers often report nothing; an estimate keeps %tokens and the budget meaningful.
    addUsage(live, deps.info, deps.promptTokens, deps.counter.count(produced));
  }
  writer.end(outcome.interrupted);
  return outcome;
}

/**
 * The chain that reads the reply: calls written as text first (they hold text back), then native
 * calls, then fenced blocks when no tools were sent — or, for an unprobed local model, a reply judged
 * by its end — else prose.
 */
function replyParsers(writer: StepWriter, request: Omit<ProviderRequest, 'signal'>, deps: StepDeps): ReplyStage {
  const fencedTools = deps.fencedTools ?? new Map<string, string>();
  const runnable = (info: string) => Languages.findLanguage(info)?.name ?? (fencedTools.has(info) ? info : null);
  const last =
    request.tools.length === 0
      ? new FencedStage(writer, runnable, fencedTools)
      : deps.dialectFromAnswer
        ? new AnswerDialectStage(writer, runnable, fencedTools)
        : new ProseStage(writer);
  return new TextCallStage(
    writer,
    new NativeCallStage(writer, last),
    request.tools.map((t) => t.name),
  );
}

function addUsage(live: LiveConversation, info: ModelInfo, inputTokens: number, outputTokens: number): void {
  const usage = live.conv.usage;
  usage.inputTokens += inputTokens;
  usage.outputTokens += outputTokens;
  usage.costUsd += costOf(info, inputTokens, outputTokens) ?? 0;
}
