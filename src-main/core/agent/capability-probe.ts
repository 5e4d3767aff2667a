import type { ModelCapability } from '@contract';
import { Languages } from '../exec';
import { EXECUTE_TOOL_NAME, executeTool } from '../llm/execute-tool';
import type { Provider, ProviderRequest } from '../llm/provider';
import { classifyFailure } from '../llm/provider-errors';
import { FencedCodeParser } from './reply/fenced-code-parser';
import { newId, now } from './ids';
import { PROBE_MARKER } from './probe-marker';
import { TextCallParser } from './reply/text-call-parser';

/**
 * One short request that asks the model to run a line of Python, to learn how it calls tools:
 * natively, as text in a dialect (text-call-parser.ts), only in fenced code blocks, or not at all.
 * The agent then talks to the model the way that works (turn.ts), and the model picker shows it.
 */

const SYSTEM = `You can run code on the user's machine with the \`${EXECUTE_TOOL_NAME}\` tool. (${PROBE_MARKER})`;
const ASK = `Run this Python code with the ${EXECUTE_TOOL_NAME} tool: print(6 * 7)`;
/** Local servers may load the model first: give the answer time, but not forever. */
const PROBE_TIMEOUT_MS = 120_000;

export async function probeCapability(provider: Provider, model: string, signal?: AbortSignal): Promise<ModelCapability> {
  const limit = AbortSignal.any([AbortSignal.timeout(PROBE_TIMEOUT_MS), ...(signal ? [signal] : [])]);
  try {
    return await ask(provider, model, true, limit);
  } catch (err) {
    if (classifyFailure(err).kind !== 'tools-refused') throw err;
    // The server refuses tool definitions: can the model still write a call, or a code block?
    const without = await ask(provider, model, false, limit);
    return { ...without, detail: `the server refuses tool definitions; ${without.detail ?? without.mode}` };
  }
}

async function ask(provider: Provider, model: string, tools: boolean, signal: AbortSignal): Promise<ModelCapability> {
  const request: ProviderRequest = {
    model,
    system: SYSTEM,
    items: [{ kind: 'user', id: newId(), text: ASK, attachments: [], createdAt: now() }],
    tools: tools ? [executeTool] : [],
    images: new Map(),
    temperature: 0,
    maxOutputTokens: 512,
    maxOutputTokensSet: true,
    signal,
  };
  const textCalls = new TextCallParser((name) => name === EXECUTE_TOOL_NAME);
  const fenced = new FencedCodeParser((info) => Languages.findLanguage(info)?.name ?? null);
  let dialect: ModelCapability['dialect'];
  let fencedCode = false;
  let text = '';
  const onText = (events: ReturnType<TextCallParser['feed']>) => {
    for (const ev of events) {
      if (ev.type === 'calls') dialect ??= ev.dialect;
      else for (const f of fenced.feed(ev.text)) fencedCode ||= f.type === 'code-start';
    }
  };
  for await (const ev of provider.stream(request)) {
    if (ev.type === 'tool-call-start' && ev.name === EXECUTE_TOOL_NAME) return result('native', undefined, 'calls the tool natively');
    if (ev.type === 'text') {
      text += ev.text;
      onText(textCalls.feed(ev.text));
    }
  }
  onText(textCalls.finish());
  for (const f of fenced.finish()) fencedCode ||= f.type === 'code-start';
  if (dialect) return result('text', dialect, `writes tool calls as text (${dialect})`);
  if (fencedCode) return result('fenced', undefined, 'writes code in fenced blocks');
  return result('none', undefined, `answered without code: ${JSON.stringify(text.slice(0, 120))}`);
}

function result(mode: ModelCapability['mode'], dialect: ModelCapability['dialect'], detail: string): ModelCapability {
  return { mode, ...(dialect ? { dialect } : {}), probedAt: now(), detail };
}
