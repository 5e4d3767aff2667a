import { describe, expect, it } from 'vitest';
import { pullOllamaModel, listOllamaModelSizes } from '../../../src-main/core/llm/ollama-pull';
import type { AgentHarness } from '../../support/agent-harness';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

interface OllamaBody {
  model: string;
  keep_alive: string;
  options: { num_ctx: number };
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{
    role: string;
    content: string;
    tool_calls?: Array<{ function: { name: string; arguments: unknown } }>;
    tool_name?: string;
  }>;
}

async function ollamaHarness(contextLength: number, settings: Record<string, unknown> = {}): Promise<AgentHarness> {
  const harness = await startHarness({
    settings: { provider: 'ollama', model: 'qwen2.5-coder:7b', autoRun: true, ...settings },
    llm: {
      models: ['qwen2.5-coder:7b'],
      ollama: { contextLength: { 'qwen2.5-coder:7b': contextLength }, sizeBytes: 4_683_087_332, pullable: ['llama3.2:1b'] },
    },
  });
  harness.settings.update({ baseUrl: harness.llm.openaiBaseUrl });
  return harness;
}

describe('Ollama through its native API', () => {
  it('runs a turn over /api/chat with num_ctx sized to the conversation, keep_alive, and tool results named', async () => {
    const h = await ollamaHarness(131_072, { ollamaKeepAlive: '2h' });
    h.llm.enqueue(
      { kind: 'tool', calls: [{ name: 'execute', arguments: { language: 'shell', code: 'echo native-$((40 + 2))' } }] },
      { kind: 'text', text: 'It printed native-42.' },
    );
    const id = await h.newConversation();
    await h.send(id, 'print something');

    const conv = await h.agent.snapshot(id);
    expect(conv.items.find((i) => i.kind === 'cell')).toMatchObject({ status: 'done', code: 'echo native-$((40 + 2))' });
    expect(h.llm.requests.filter((r) => r.path === '/api/chat')).toHaveLength(2);
    expect(h.llm.requests.some((r) => r.path === '/v1/chat/completions')).toBe(false);
    const [first, second] = h.bodies() as unknown as OllamaBody[];
    expect(first?.keep_alive).toBe('2h');
    // execute, the task list's update_tasks (docs/agent.md#task-list), memory's save_memory (#memory, on by
    // default), delegate (#sub-agents) and schedule_task (docs/schedules.md), as the app offers them.
    expect(first?.tools?.map((t) => t.function.name)).toEqual(['execute', 'update_tasks', 'save_memory', 'delegate', 'schedule_task']);
    // A short conversation gets a small window, never more than the 32,768-token cap.
    expect(first?.options.num_ctx).toBeGreaterThanOrEqual(4096);
    expect(first?.options.num_ctx).toBeLessThanOrEqual(32_768);
    expect((first?.options.num_ctx ?? 1) % 4096).toBe(0);
    const call = second?.messages.find((m) => m.role === 'assistant')?.tool_calls?.[0];
    expect(call?.function).toEqual({ name: 'execute', arguments: { language: 'shell', code: 'echo native-$((40 + 2))' } });
    expect(second?.messages.at(-1)).toMatchObject({ role: 'tool', tool_name: 'execute', content: expect.stringContaining('native-42') });
    // The window reported to the UI is the model's own length capped by the setting.
    expect(h.payloads('usage.updated').at(-1)?.contextWindow).toBe(32_768);
  });

  it('grows num_ctx with the conversation up to the model length, and fits the history to it', async () => {
    const h = await ollamaHarness(16_384, { ollamaMaxContext: 65_536 });
    const long = 'x'.repeat(30_000);
    h.llm.enqueue({ kind: 'text', text: 'ok' }, { kind: 'text', text: 'ok again' });
    const id = await h.newConversation();
    await h.send(id, 'hi');
    await h.send(id, `remember this: ${long}`);
    const [small, big] = h.bodies() as unknown as OllamaBody[];
    expect(big?.options.num_ctx).toBeGreaterThan(small?.options.num_ctx ?? Infinity);
    // The model supports 16,384 tokens: never more, whatever the cap allows.
    expect(big?.options.num_ctx).toBeLessThanOrEqual(16_384);
    expect(h.payloads('usage.updated').at(-1)?.contextWindow).toBe(16_384);
  });

  it('names the model and how to pull it when Ollama does not have it', async () => {
    const h = await ollamaHarness(8192, { model: 'missing-model:1b' });
    const id = await h.newConversation();
    await h.send(id, 'hello');
    const conv = await h.agent.snapshot(id);
    expect(conv.items.find((i) => i.kind === 'notice')).toMatchObject({
      level: 'error',
      text: expect.stringContaining('ollama pull missing-model:1b'),
    });
  });

  it('lists installed models with sizes and pulls a missing one with progress', async () => {
    const h = await ollamaHarness(8192);
    const before = await listOllamaModelSizes(h.llm.openaiBaseUrl);
    expect(before).toEqual([{ name: 'qwen2.5-coder:7b', sizeBytes: 4_683_087_332 }]);
    const progress: Array<{ status: string; completed: number | null }> = [];
    await pullOllamaModel(h.llm.openaiBaseUrl, 'llama3.2:1b', (p) => progress.push(p));
    expect(progress.at(-1)?.status).toBe('success');
    const downloads = progress.filter((p) => p.completed !== null).map((p) => p.completed ?? 0);
    expect(downloads.length).toBeGreaterThan(1);
    expect(downloads).toEqual([...downloads].sort((a, b) => a - b));
    expect((await listOllamaModelSizes(h.llm.openaiBaseUrl)).map((m) => m.name)).toContain('llama3.2:1b');
    await expect(pullOllamaModel(h.llm.openaiBaseUrl, 'no-such-model', () => undefined)).rejects.toThrow(
      /could not pull no-such-model: pull model manifest/,
    );
  });
});
