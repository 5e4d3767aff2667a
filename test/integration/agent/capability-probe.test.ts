import { describe, expect, it } from 'vitest';
import { ModelKnowledge } from '../../../src-main/core/agent/model-knowledge';
import { createProviderFactory } from '../../../src-main/core/llm/provider-factory';
import type { ScriptedReply } from '../../fixtures/llm-server';
import type { AgentHarness } from '../../support/agent-harness';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

const CALL = JSON.stringify({ name: 'execute', arguments: { language: 'python', code: 'print(6 * 7)' } });
const probes: Array<[string, ScriptedReply, { mode: string; dialect?: string }]> = [
  [
    'a native tool call',
    { kind: 'tool', calls: [{ name: 'execute', arguments: { language: 'python', code: 'print(6 * 7)' } }] },
    { mode: 'native' },
  ],
  ['a Hermes call written as text', { kind: 'text', text: `<tool_call>\n${CALL}\n</tool_call>` }, { mode: 'text', dialect: 'hermes' }],
  [
    "Qwen3-Coder's XML call written as text",
    {
      kind: 'text',
      text: '<tool_call>\n<function=execute>\n<parameter=language>\npython\n</parameter>\n<parameter=code>\nprint(6 * 7)\n</parameter>\n</function>\n</tool_call>',
    },
    { mode: 'text', dialect: 'qwen-xml' },
  ],
  ['a Mistral call written as text', { kind: 'text', text: `[TOOL_CALLS][${CALL}]` }, { mode: 'text', dialect: 'mistral' }],
  ['a fenced code block', { kind: 'text', text: 'Sure:\n```python\nprint(6 * 7)\n```' }, { mode: 'fenced' }],
  ['prose only', { kind: 'text', text: 'The answer is 42.' }, { mode: 'none' }],
];

async function localHarness(): Promise<AgentHarness> {
  const harness = await startHarness({ settings: { provider: 'openai-compatible', model: 'local-model', autoRun: true } });
  harness.settings.update({ baseUrl: harness.llm.openaiBaseUrl });
  return harness;
}

describe('the capability probe', () => {
  for (const [what, reply, expected] of probes) {
    it(`finds ${expected.mode}${expected.dialect ? ` (${expected.dialect})` : ''} from ${what}, and remembers it across restarts`, async () => {
      const h = await localHarness();
      h.llm.setProbeReply(reply);
      const capability = await h.models.probe(h.settings.get());
      expect(capability).toMatchObject(expected);
      expect(h.payloads('model.capability').at(-1)?.capability).toEqual(capability);
      // A new instance over the same data folder (the next start of the app) knows it without asking.
      const later = new ModelKnowledge({
        dataDir: h.dataDir,
        providerFor: createProviderFactory({ get: async () => null }, () => h.settings.get()),
      });
      const asked = h.llm.requests.length;
      expect(await later.capabilityOf(h.settings.get())).toEqual(capability);
      expect(h.llm.requests.length).toBe(asked);
    });
  }

  it('asks again without tools when the server refuses them', async () => {
    const h = await localHarness();
    // llama.cpp without --jinja: a 400 for any request with tools; without them, the model writes a call as text.
    h.llm.setProbeReply((body) =>
      (body as { tools?: unknown }).tools
        ? { kind: 'error', status: 400, message: 'tools param requires --jinja flag' }
        : { kind: 'text', text: `<tool_call>\n${CALL}\n</tool_call>` },
    );
    const capability = await h.models.probe(h.settings.get());
    expect(capability).toMatchObject({ mode: 'text', dialect: 'hermes', detail: expect.stringContaining('refuses tool definitions') });
  });

  it('makes the agent ask a fenced-code model for code blocks, with no tool definitions', async () => {
    const h = await localHarness();
    h.llm.setProbeReply({ kind: 'text', text: '```python\nprint(6 * 7)\n```' });
    await h.models.probe(h.settings.get());
    h.llm.enqueue({ kind: 'text', text: '```shell\necho fenced-by-probe\n```' }, { kind: 'text', text: 'Done.' });
    const id = await h.newConversation();
    await h.send(id, 'print something');
    expect(h.bodies().map((b) => b.tools === undefined)).toEqual([true, true]);
    const conv = await h.agent.snapshot(id);
    expect(conv.items.find((i) => i.kind === 'cell')).toMatchObject({ status: 'done', toolCallId: null });
  });

  it('probes again when a model that called tools writes a code block instead, and says so', async () => {
    const h = await localHarness();
    await h.models.probe(h.settings.get());
    expect(await h.models.capabilityOf(h.settings.get())).toMatchObject({ mode: 'native' });
    h.llm.setProbeReply({ kind: 'text', text: '```python\nprint(6 * 7)\n```' });
    h.llm.enqueue({ kind: 'text', text: 'Run this:\n```python\nprint(1)\n```' });
    const id = await h.newConversation();
    await h.send(id, 'print one');
    expect(await h.models.capabilityOf(h.settings.get())).toMatchObject({ mode: 'fenced' });
    const conv = await h.agent.snapshot(id);
    expect(conv.items.find((i) => i.kind === 'notice')).toMatchObject({ text: expect.stringContaining('writes code in fenced blocks') });
  });

  it('never probes a hosted API', async () => {
    const h = await startHarness();
    expect(await h.models.capabilityOf(h.settings.get())).toBeNull();
  });
});
