import { describe, expect, it } from 'vitest';
import { writeCall } from '../../../src-main/core/llm/text-call-dialects';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

interface OpenAiBody {
  messages: Array<{ role: string; content: string | null; tool_calls?: unknown[] }>;
  tools?: unknown[];
}

const CODE = 'echo "dialect $((6 * 7))"';
const ARGS = JSON.stringify({ language: 'shell', code: CODE });

/** What each dialect's model writes, and how its result must come back to it. */
const cases = [
  { dialect: 'hermes', reply: `I'll run it.\n${writeCall('hermes', { name: 'execute', args: ARGS })}`, result: '<tool_response>' },
  { dialect: 'llama', reply: `{"name": "execute", "parameters": ${ARGS}}`, result: 'Result of the execute call:' },
  { dialect: 'mistral', reply: writeCall('mistral', { name: 'execute', args: ARGS }), result: '[TOOL_RESULTS]' },
  { dialect: 'deepseek', reply: writeCall('deepseek', { name: 'execute', args: ARGS }), result: '<｜tool▁output▁begin｜>' },
  { dialect: 'json', reply: `\`\`\`json\n{"name": "execute", "arguments": ${ARGS}}\n\`\`\``, result: 'Result of the execute call:' },
] as const;

describe('tool calls a local model writes as text', () => {
  for (const c of cases) {
    it(`runs a ${c.dialect} call streamed in small pieces, and answers in that dialect`, async () => {
      const h = await startHarness({
        settings: { provider: 'openai-compatible', model: 'local-model', autoRun: true },
        llm: { chunkSize: 3 },
      });
      h.settings.update({ baseUrl: h.llm.openaiBaseUrl });
      h.llm.enqueue({ kind: 'text', text: c.reply }, { kind: 'text', text: 'It printed 42.' });
      const id = await h.newConversation();
      await h.send(id, 'multiply six by seven in the shell');

      const conv = await h.agent.snapshot(id);
      const cell = conv.items.find((i) => i.kind === 'cell');
      expect(cell).toMatchObject({ language: 'shell', code: CODE, status: 'done', callDialect: c.dialect, toolCallId: null });
      expect(cell?.kind === 'cell' && cell.resultForModel).toContain('dialect 42');
      // The call's text is not shown as prose.
      const prose = conv.items
        .filter((i) => i.kind === 'assistant')
        .map((i) => (i.kind === 'assistant' ? i.text : ''))
        .join('');
      expect(prose).not.toContain('"execute"');
      expect(h.payloads('turn.end').at(-1)?.reason).toBe('done');

      const second = h.bodies()[1] as unknown as OpenAiBody;
      // Tools were offered (the server's template shows them), and the call came back as the model wrote it.
      expect(second.tools).toBeDefined();
      const assistant = second.messages.find((m) => m.role === 'assistant');
      expect(assistant?.tool_calls).toBeUndefined();
      expect(assistant?.content).toContain(CODE.replace(/"/g, '\\"'));
      const last = second.messages.at(-1);
      expect(last?.role).toBe('user');
      expect(last?.content).toContain(c.result);
      expect(last?.content).toContain('dialect 42');
    });
  }

  it('does not run a call that prose only shows, and ends the turn with the text', async () => {
    const h = await startHarness({
      settings: { provider: 'openai-compatible', model: 'local-model', autoRun: true },
      llm: { chunkSize: 2 },
    });
    h.settings.update({ baseUrl: h.llm.openaiBaseUrl });
    const prose = `Models like Qwen write calls such as:\n\`\`\`\n<tool_call>\n{"name": "execute", "arguments": ${ARGS}}\n</tool_call>\n\`\`\`\nand ${'`'}{"name": "execute"}${'`'} inline.`;
    h.llm.enqueue({ kind: 'text', text: prose });
    const id = await h.newConversation();
    await h.send(id, 'how do local models call tools?');
    const conv = await h.agent.snapshot(id);
    expect(conv.items.some((i) => i.kind === 'cell')).toBe(false);
    expect(
      conv.items
        .filter((i) => i.kind === 'assistant')
        .map((i) => (i.kind === 'assistant' ? i.text : ''))
        .join(''),
    ).toBe(prose);
    expect(h.bodies()).toHaveLength(1);
  });
});
