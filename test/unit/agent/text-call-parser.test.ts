import { describe, expect, it } from 'vitest';
import { TextCallParser, type TextCallEvent } from '../../../src-main/core/agent/reply/text-call-parser';
import { writeCall } from '../../../src-main/core/llm/text-call-dialects';

const ours = (name: string) => name === 'execute';

interface Parsed {
  text: string;
  calls: Array<{ dialect: string; name: string; args: unknown }>;
  progress: number;
}

function parse(chunks: string[]): Parsed {
  const parser = new TextCallParser(ours);
  const events: TextCallEvent[] = [];
  for (const chunk of chunks) events.push(...parser.feed(chunk));
  events.push(...parser.finish());
  const result: Parsed = { text: '', calls: [], progress: 0 };
  for (const ev of events) {
    if (ev.type === 'text') result.text += ev.text;
    else if (!ev.final) result.progress++;
    else for (const call of ev.calls) result.calls.push({ dialect: ev.dialect, name: call.name, args: JSON.parse(call.args) as unknown });
  }
  return result;
}

/** The same reply cut at every position (two chunks), and one character at a time. */
function everySplit(reply: string): Parsed[] {
  const results = [parse([reply]), parse([...reply])];
  for (let i = 1; i < reply.length; i++) results.push(parse([reply.slice(0, i), reply.slice(i)]));
  return results;
}

const ARGS = { language: 'python', code: 'print("a {b} [c]")\nx = "</tool_call>"' };
const ARGS_JSON = JSON.stringify(ARGS);

const dialects: Array<{ name: string; reply: string; dialect: string; prose?: string }> = [
  {
    name: 'Hermes / Qwen',
    reply: `Let me compute it.\n<tool_call>\n{"name": "execute", "arguments": ${ARGS_JSON}}\n</tool_call>`,
    dialect: 'hermes',
    prose: 'Let me compute it.\n',
  },
  {
    name: 'Llama 3.x python_tag with JSON',
    reply: `<|python_tag|>{"name": "execute", "parameters": ${ARGS_JSON}}<|eom_id|>`,
    dialect: 'llama',
  },
  { name: 'Llama 3.x bare JSON', reply: `{"name": "execute", "parameters": ${ARGS_JSON}}`, dialect: 'llama' },
  { name: 'Mistral array', reply: `[TOOL_CALLS][{"name": "execute", "arguments": ${ARGS_JSON}}]`, dialect: 'mistral' },
  { name: 'Mistral v11', reply: `[TOOL_CALLS]execute[ARGS]${ARGS_JSON}`, dialect: 'mistral' },
  {
    name: 'DeepSeek V3',
    reply: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>execute\n\`\`\`json\n${ARGS_JSON}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
    dialect: 'deepseek',
  },
  {
    name: 'DeepSeek V3.1',
    reply: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>execute<｜tool▁sep｜>${ARGS_JSON}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
    dialect: 'deepseek',
  },
  { name: 'a JSON object naming our tool', reply: `  {"name": "execute", "arguments": ${ARGS_JSON}}\n`, dialect: 'json' },
  {
    name: 'a JSON array naming our tool',
    reply: `[{"type": "function", "function": {"name": "execute", "arguments": ${JSON.stringify(ARGS_JSON)}}}]`,
    dialect: 'json',
  },
  {
    name: 'a JSON object in one json fence',
    reply: `\`\`\`json\n{"name": "execute", "arguments": ${ARGS_JSON}}\n\`\`\`\n`,
    dialect: 'json',
  },
];

describe('tool calls written as text', () => {
  for (const d of dialects) {
    it(`reads ${d.name}, however the stream is split`, () => {
      for (const result of everySplit(d.reply)) {
        expect(result.calls).toEqual([{ dialect: d.dialect, name: 'execute', args: ARGS }]);
        expect(result.text).toBe(d.prose ?? '');
      }
    });
  }

  it('shows a marked call while it is still being written', () => {
    const reply = `<tool_call>\n{"name": "execute", "arguments": {"language": "python", "code": "for i in range(3):\\n    print(i)\\n"}}\n</tool_call>`;
    const parsed = parse(reply.match(/.{1,7}/gs) ?? []);
    expect(parsed.progress).toBeGreaterThan(2);
    expect(parsed.calls).toHaveLength(1);
  });

  it('reads several calls of one reply, and the Llama code interpreter form', () => {
    const two = `<tool_call>\n{"name":"execute","arguments":{"language":"shell","code":"ls"}}\n</tool_call>\n<tool_call>\n{"name":"execute","arguments":{"language":"python","code":"1"}}\n</tool_call>`;
    expect(parse([two]).calls.map((c) => (c.args as { language: string }).language)).toEqual(['shell', 'python']);
    const code = parse(['<|python_tag|>import math\nprint(math.pi)<|eom_id|>']);
    expect(code.calls).toEqual([{ dialect: 'llama', name: 'execute', args: { language: 'python', code: 'import math\nprint(math.pi)' } }]);
  });

  it('writes each call back in its own dialect so it reads the same again', () => {
    for (const dialect of ['hermes', 'llama', 'mistral', 'deepseek', 'json'] as const) {
      const text = writeCall(dialect, { name: 'execute', args: ARGS_JSON });
      expect(parse([text]).calls).toEqual([{ dialect, name: 'execute', args: ARGS }]);
    }
  });
});

describe('prose that only shows a call never runs', () => {
  const adversarial: Record<string, string> = {
    'an example inside a code fence': `To call the tool, a model writes:\n\`\`\`xml\n<tool_call>\n{"name": "execute", "arguments": ${ARGS_JSON}}\n</tool_call>\n\`\`\`\nThat is all.`,
    'a marker quoted mid-sentence': `Qwen wraps calls in <tool_call>{"name": "execute", "arguments": ${ARGS_JSON}}</tool_call> tags.`,
    'inline code': `Use \`<|python_tag|>{"name": "execute", "parameters": ${ARGS_JSON}}\` to run code.`,
    'JSON followed by an explanation': `{"name": "execute", "arguments": ${ARGS_JSON}}\n\nThis is the JSON you would send.`,
    'JSON after an introduction': `Here is the payload:\n{"name": "execute", "arguments": ${ARGS_JSON}}`,
    'a json fence followed by prose': `\`\`\`json\n{"name": "execute", "arguments": ${ARGS_JSON}}\n\`\`\`\nSend that to the API.`,
    'a JSON object naming another tool': `{"name": "get_weather", "arguments": {"city": "Paris"}}`,
    'a marked call naming another tool': `<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>`,
    'a marker with no call after it': `<tool_call> is the tag Hermes models use.`,
    'a list starting with a bracket': `[1] The first reason.\n[2] The second.`,
    'Mistral marker followed by prose': `[TOOL_CALLS] are how Mistral models call tools.`,
    'a plain JSON answer': `{"answer": 42}`,
    'python code in a fence': '```python\nprint(1)\n```',
  };
  for (const [name, reply] of Object.entries(adversarial)) {
    it(`${name}: stays text, whole`, () => {
      for (const result of everySplit(reply)) {
        expect(result.calls).toEqual([]);
        expect(result.progress).toBe(0);
        expect(result.text).toBe(reply);
      }
    });
  }
});
