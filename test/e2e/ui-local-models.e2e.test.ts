import { describe, expect, it } from 'vitest';
import { writeCall } from '../../src-main/core/llm/text-call-dialects';
import { expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage, shot } from '../support/ui-harness';
import { useScriptedLlms } from '../support/scripted-llm';

// Local models from the user's side: tool calls written as text in each dialect run as normal cells;
// the model picker shows how a model calls tools and its context window; Ollama models are listed with
// their sizes and a missing one is pulled, after a confirmation, with progress.

const argsFor = (tag: string) => JSON.stringify({ language: 'shell', code: `echo ran-${tag}-$((6 * 7))` });

const replies: Record<string, (tag: string) => string> = {
  hermes: (tag) => `Running it.\n${writeCall('hermes', { name: 'execute', args: argsFor(tag) })}`,
  llama: (tag) => `{"name": "execute", "parameters": ${argsFor(tag)}}`,
  mistral: (tag) => writeCall('mistral', { name: 'execute', args: argsFor(tag) }),
  deepseek: (tag) => writeCall('deepseek', { name: 'execute', args: argsFor(tag) }),
  json: (tag) => `\`\`\`json\n{"name": "execute", "arguments": ${argsFor(tag)}}\n\`\`\``,
};

describe('local models in the UI', () => {
  // Registered before the fixture's hooks, so each test's server closes after the app using it has closed.
  const startLlm = useScriptedLlms();
  const ui = useUiApp({}, { start: 'in-test' });

  it('runs a tool call written as text in each dialect as a normal cell', async () => {
    const llm = await startLlm({ chunkSize: 3 });
    await ui.start({ llm, settings: { provider: 'openai-compatible', baseUrl: llm.openaiBaseUrl, model: 'local-model', autoRun: true } });
    const p = ui.page;
    for (const [dialect, reply] of Object.entries(replies)) {
      llm.enqueue({ kind: 'text', text: reply(dialect) }, { kind: 'text', text: `Done with ${dialect}.` });
      await sendMessage(p, `run it the ${dialect} way`);
      await expectText(p.getByText(`Done with ${dialect}.`), `Done with ${dialect}.`);
      const cell = p
        .getByTestId('cell')
        .filter({ hasText: `ran-${dialect}-` })
        .last();
      await expectText(cell, `ran-${dialect}-42`);
    }
    // No call was shown as the model's prose.
    expect(await p.locator('.markdown').filter({ hasText: '"execute"' }).count()).toBe(0);
    await shot(p, 'local-models-dialects.png', { fullPage: true });
  });

  it('shows how the chosen model calls tools and its context window, and checks again on demand', async () => {
    const llm = await startLlm({ ollama: { contextLength: { 'qwen2.5-coder:7b': 131_072 } }, models: ['qwen2.5-coder:7b'] });
    await ui.start({ llm, settings: { provider: 'ollama', baseUrl: llm.openaiBaseUrl, model: 'qwen2.5-coder:7b' } });
    const p = ui.page;
    await p.getByTestId('model-button').click();
    await expectText(p.getByTestId('model-context'), 'Context: 32,768 tokens (the model supports 131,072');
    await expectText(p.getByTestId('model-capability'), 'not checked yet');
    await p.getByRole('button', { name: 'Check now' }).click();
    await expectText(p.getByTestId('model-capability'), 'calls tools natively');
    llm.setProbeReply({
      kind: 'text',
      text: `<tool_call>\n{"name": "execute", "arguments": {"language": "python", "code": "print(6 * 7)"}}\n</tool_call>`,
    });
    await p.getByRole('button', { name: 'Check again' }).click();
    await expectText(p.getByTestId('model-capability'), 'writes tool calls as text (hermes)');
    await shot(p, 'local-models-picker.png');
  });

  it('lists Ollama models with their sizes and pulls a missing one after asking', async () => {
    const llm = await startLlm({ models: ['qwen2.5-coder:7b'], ollama: { sizeBytes: 4_683_087_332, pullable: ['llama3.2:1b'] } });
    await ui.start({ llm, settings: { provider: 'ollama', baseUrl: llm.openaiBaseUrl, model: 'qwen2.5-coder:7b' } });
    const p = ui.page;
    await p.getByTestId('model-button').click();
    const installed = p.getByRole('list', { name: 'Installed Ollama models' });
    await expectText(installed, 'qwen2.5-coder:7b 4.7 GB');
    await p.getByLabel('Model', { exact: true }).fill('llama3.2:1b');
    const asked: string[] = [];
    p.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await p.getByRole('button', { name: 'Pull llama3.2:1b…' }).click();
    await expectText(p.getByTestId('ollama-status'), 'llama3.2:1b is ready');
    expect(asked[0]).toContain('Pull llama3.2:1b into Ollama?');
    await expectText(installed, 'llama3.2:1b');
    expect(llm.requests.filter((r) => r.path === '/api/pull')).toHaveLength(1);
    await shot(p, 'local-models-pull.png');
  });
});
