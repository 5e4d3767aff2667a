import { Allow, parse as parsePartialJson } from 'partial-json';
import type { TextCallDialect } from '@contract';
import { isQwenXmlBody, qwenXmlCalls, writeQwenXmlCall } from './qwen-xml-calls';
import type { TextCall } from './text-call';

/**
 * Tool calls that local models write as text, in the formats their chat templates teach them, for
 * servers that do not turn them into native tool calls (an Ollama or llama.cpp template without tool
 * parsing, vLLM without --tool-call-parser, LM Studio with an unknown template):
 *
 * - hermes    `<tool_call>{"name": …, "arguments": {…}}</tool_call>` (Hermes, Qwen 2.5/3, many fine-tunes)
 * - qwen-xml  `<tool_call><function=name><parameter=key>value</parameter>…</function></tool_call>`
 *             (Qwen3-Coder; the same opener as hermes, told apart by its body: qwen-xml-calls.ts)
 * - llama     `<|python_tag|>{"name": …, "parameters": {…}}` or `<|python_tag|>code` (Llama 3.1+ code
 *             interpreter), and a reply that is nothing but `{"name": …, "parameters": …}` (Llama 3.x JSON)
 * - mistral   `[TOOL_CALLS][{"name": …, "arguments": {…}}]`, or the newer `[TOOL_CALLS]name[ARGS]{…}`
 * - deepseek  `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>name ```json {…} ```<｜tool▁call▁end｜>…`
 *             (V2.5/V3) or `<｜tool▁call▁begin｜>name<｜tool▁sep｜>{…}<｜tool▁call▁end｜>` (V3.1)
 * - json      a reply that is nothing but a JSON object or array naming one of our tools
 *
 * This file knows each dialect's shape: where a block starts and ends, how to read calls out of it
 * (also while it is half-written), and how to write a call and its result back in the same form.
 */

export type { TextCall } from './text-call';

/** A block opener; `dialect` tells how to read what follows it. */
export interface Marker {
  text: string;
  dialect: TextCallDialect;
  /** What ends the block; the end of the reply always does. */
  closers: string[];
  /** The block also ends when its JSON body is complete (no closing tag in this dialect). */
  endsWithJson: boolean;
}

// DeepSeek's markers use fullwidth bars (U+FF5C) and the SentencePiece space (U+2581); some servers
// detokenise them to ASCII, so both spellings open and close a block.
const DS = (name: string): string[] => [
  `<｜${name}｜>`,
  `<|${name}|>`,
  `<｜${name.replace(/▁/g, '_')}｜>`,
  `<|${name.replace(/▁/g, '_')}|>`,
];

export const MARKERS: Marker[] = [
  { text: '<tool_call>', dialect: 'hermes', closers: ['</tool_call>'], endsWithJson: false },
  { text: '<|python_tag|>', dialect: 'llama', closers: ['<|eom_id|>', '<|eot_id|>'], endsWithJson: true },
  { text: '[TOOL_CALLS]', dialect: 'mistral', closers: ['</s>'], endsWithJson: true },
  ...DS('tool▁calls▁begin').map((text) => ({ text, dialect: 'deepseek' as const, closers: DS('tool▁calls▁end'), endsWithJson: false })),
];

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses complete JSON, or (when `partial`) as much of a half-written value as can be read. */
function readJson(text: string, partial: boolean): unknown {
  try {
    return partial ? parsePartialJson(text, Allow.ALL) : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `{"name", "arguments"|"parameters"}`, or OpenAI's `{"type": "function", "function": {…}}`. */
function callOf(value: unknown): { name: string; args: unknown; hasArgs: boolean } | null {
  if (!isObject(value)) return null;
  const inner = isObject(value.function) ? value.function : value;
  if (typeof inner.name !== 'string') return null;
  const hasArgs = 'arguments' in inner || 'parameters' in inner;
  return { name: inner.name, args: inner.arguments ?? inner.parameters, hasArgs };
}

/** Arguments as JSON text: an object is encoded, a string (some models double-encode) kept as it is. */
function argsText(args: unknown): string {
  if (typeof args === 'string') return args;
  return JSON.stringify(args ?? {});
}

/**
 * Calls in a JSON body (one object, or an array of them). Half-written (`partial`): only calls whose
 * name is complete — the arguments key has begun — are returned, so a cell never shows a wrong name.
 */
export function callsInJson(text: string, partial: boolean): TextCall[] | null {
  const value = readJson(text.trim(), partial);
  const list = Array.isArray(value) ? value : [value];
  const calls: TextCall[] = [];
  for (const entry of list) {
    const call = callOf(entry);
    if (!call) return partial && calls.length > 0 ? calls : partial && list.length > 0 ? [] : null;
    if (partial && !call.hasArgs) break;
    calls.push({ name: call.name, args: argsText(call.args) });
  }
  return calls.length > 0 || partial ? calls : null;
}

/** The dialect a block is written in: its marker's, unless its body tells a dialect sharing the marker. */
export function dialectOfBlock(marker: TextCallDialect, body: string): TextCallDialect {
  return marker === 'hermes' && isQwenXmlBody(body) ? 'qwen-xml' : marker;
}

/** Reads the calls out of a block's body (the text after its opener, without the closer). */
export function callsInBlock(dialect: TextCallDialect, body: string, partial: boolean): TextCall[] | null {
  switch (dialect) {
    case 'hermes':
    case 'qwen-xml':
      if (isQwenXmlBody(body)) return qwenXmlCalls(body, partial);
      return callsInJson(stripJsonFence(body), partial);
    case 'json':
      return callsInJson(stripJsonFence(body), partial);
    case 'llama': {
      const trimmed = body.trimStart();
      if (trimmed.startsWith('{') || trimmed.startsWith('[')) return callsInJson(trimmed, partial);
      // Llama's built-in code interpreter: the body is Python source.
      if (trimmed === '') return partial ? [] : null;
      return [{ name: 'execute', args: JSON.stringify({ language: 'python', code: body.replace(/^\n/, '').replace(/\s+$/, '') }) }];
    }
    case 'mistral':
      return mistralCalls(body, partial);
    case 'deepseek':
      return deepseekCalls(body, partial);
  }
}

function stripJsonFence(body: string): string {
  const m = /^\s*```(?:json)?\s*\n([\s\S]*?)(?:\n\s*```\s*)?$/.exec(body);
  return m?.[1] ?? body;
}

function mistralCalls(body: string, partial: boolean): TextCall[] | null {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) return callsInJson(trimmed, partial);
  // v11+: name[ARGS]{…}, with an optional [CALL_ID]id, repeated with [TOOL_CALLS] between calls.
  const calls: TextCall[] = [];
  for (const part of trimmed.split('[TOOL_CALLS]')) {
    const m = /^\s*([A-Za-z0-9_.-]+)(?:\[CALL_ID\][A-Za-z0-9]*)?\[ARGS\]([\s\S]*)$/.exec(part);
    if (!m) return partial ? calls : null;
    const args = readJson(m[2]?.trim() ?? '', partial);
    if (args === undefined && !partial) return null;
    calls.push({ name: m[1] ?? '', args: argsText(args ?? {}) });
  }
  return calls;
}

const DS_CALL_BEGIN = new RegExp(DS('tool▁call▁begin').map(escape).join('|'));
const DS_CALL_END = new RegExp(DS('tool▁call▁end').map(escape).join('|'));
const DS_SEP = new RegExp(DS('tool▁sep').map(escape).join('|'));

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function deepseekCalls(body: string, partial: boolean): TextCall[] | null {
  const calls: TextCall[] = [];
  const parts = body.split(DS_CALL_BEGIN).slice(1);
  if (parts.length === 0) return partial ? [] : null;
  for (const raw of parts) {
    const ended = DS_CALL_END.test(raw);
    const part = raw.split(DS_CALL_END)[0] ?? '';
    const [head = '', rest] = part.split(DS_SEP);
    if (rest === undefined) return partial ? calls : null;
    // V2.5/V3: "function" before the separator, then the name, a newline and a ```json block.
    const name = head.trim() === 'function' ? (/^([^\n]*)\n/.exec(rest)?.[1] ?? '').trim() : head.trim();
    const argsPart = head.trim() === 'function' ? rest.slice(rest.indexOf('\n') + 1) : rest;
    if (!name || (head.trim() === 'function' && !rest.includes('\n'))) return partial ? calls : null;
    const args = readJson(stripJsonFence(argsPart).trim(), partial || !ended);
    if (args === undefined && !partial) return null;
    calls.push({ name, args: argsText(args ?? {}) });
  }
  return calls;
}

/** The call written back in its dialect, as the assistant's text, when the history is sent again. */
export function writeCall(dialect: TextCallDialect, call: TextCall): string {
  const args = readJson(call.args, false) ?? call.args;
  switch (dialect) {
    case 'hermes':
      return `<tool_call>\n${JSON.stringify({ name: call.name, arguments: args })}\n</tool_call>`;
    case 'qwen-xml':
      return writeQwenXmlCall(call);
    case 'llama':
      return `<|python_tag|>${JSON.stringify({ name: call.name, parameters: args })}`;
    case 'mistral':
      return `[TOOL_CALLS][${JSON.stringify({ name: call.name, arguments: args })}]`;
    case 'deepseek':
      return `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>${call.name}\n\`\`\`json\n${JSON.stringify(args)}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`;
    case 'json':
      return JSON.stringify({ name: call.name, arguments: args });
  }
}

/** A run's result, in the form the dialect's chat template gives tool results to the model. */
export function writeResult(dialect: TextCallDialect, name: string, result: string): string {
  switch (dialect) {
    case 'hermes':
    case 'qwen-xml':
      return `<tool_response>\n${JSON.stringify({ name, content: result })}\n</tool_response>`;
    case 'mistral':
      return `[TOOL_RESULTS]${JSON.stringify({ content: result })}[/TOOL_RESULTS]`;
    case 'deepseek':
      return `<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>${result}<｜tool▁output▁end｜><｜tool▁outputs▁end｜>`;
    case 'llama':
    case 'json':
      return `Result of the ${name} call:\n${result}`;
  }
}
