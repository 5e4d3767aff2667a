import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { thinkingSignature } from '../fixtures/llm-server';
import { expectAttribute, expectText } from '../support/page-expect';
import { useUiApp } from '../support/ui-fixture';
import { sendMessage, shot } from '../support/ui-harness';
import { useScriptedLlms } from '../support/scripted-llm';

// Extended thinking from the user's side: turned on in Settings (with the budget checked there, by the
// schema and by main against the model's output limit), then a message whose thinking streams into a
// collapsed "Thinking…" block that opens to show it. Claude over the Anthropic protocol, through the
// official SDK, against the scripted server.

interface AnthropicBody {
  max_tokens: number;
  thinking?: { type: string; budget_tokens: number };
  temperature?: number;
}

describe('extended thinking in the UI', () => {
  // Registered before the fixture's hooks, so each test's server closes after the app using it has closed.
  const startLlm = useScriptedLlms();
  const ui = useUiApp({}, { start: 'in-test' });

  it('turns thinking on in Settings, then shows the streamed thinking collapsed above the answer', async () => {
    const llm = await startLlm({ chunkSize: 4 });
    const secrets = new MemorySecretStore();
    await secrets.set('provider:anthropic', 'sk-ant-test-ui-thinking');
    await ui.start({
      llm,
      secrets,
      settings: { provider: 'anthropic', baseUrl: llm.anthropicBaseUrl, model: 'claude-sonnet-4-6', temperature: 0.5 },
    });
    const p = ui.page;
    const settings = () => ui.aut.app.context.settings.get();

    await p.getByRole('button', { name: 'Settings' }).click();
    const field = p.getByTestId('setting-thinking');
    const toggle = p.getByRole('switch', { name: 'Extended thinking (Anthropic)' });
    const budget = p.getByRole('textbox', { name: 'Thinking budget' });
    expect(await toggle.isChecked()).toBe(false);
    // Settings only another provider reads are not shown for Anthropic (issue 25 item 9).
    await expectText(p.getByTestId('setting-model'), /Model/);
    for (const other of ['ollamaMaxContext', 'ollamaKeepAlive', 'reasoningEffort'])
      expect(await p.getByTestId(`setting-${other}`).count()).toBe(0);
    expect(await budget.isDisabled()).toBe(true);

    await toggle.check();
    await expect.poll(settings).toMatchObject({ thinkingBudgetTokens: 4096 });
    await expect.poll(() => budget.inputValue()).toBe('4096');

    // Below Anthropic's minimum: the schema refuses it in the page.
    await budget.fill('500');
    await budget.press('Enter');
    await expectText(field.getByRole('alert'), 'at least 1024 tokens');
    // Not below what claude-sonnet-4-6 can write: main refuses it, and says so under the field.
    await budget.fill('64000');
    await budget.press('Enter');
    await expectText(
      field.getByRole('alert'),
      /thinkingBudgetTokens: .*must be less than the output limit of claude-sonnet-4-6 \(64000 tokens\)/,
    );
    expect(await p.getByRole('alert').filter({ hasNotText: 'thinkingBudgetTokens' }).count()).toBe(0);
    expect(settings().thinkingBudgetTokens).toBe(4096);

    await budget.fill('2048');
    await budget.press('Enter');
    await expect.poll(settings).toMatchObject({ thinkingBudgetTokens: 2048 });
    expect(await field.getByRole('alert').count()).toBe(0);
    await shot(p, 'ui-thinking-settings.png');

    // A reply whose stream holds after its thinking text, before the signature.
    const thought = 'The user says hello. A short, friendly greeting is enough; no code is needed here.';
    llm.enqueue({ kind: 'text', thinking: thought, text: 'Hello! How can I help?', pauseAfterThinking: true });
    await p.getByRole('button', { name: 'Chat' }).click();
    await sendMessage(p, 'hello');

    const block = p.getByTestId('thinking');
    const summary = block.locator('summary');
    const text = block.locator('.thinking-text');
    // Streaming: collapsed, muted "Thinking…", the text inside but not shown.
    await expectText(summary, 'Thinking…');
    await expectAttribute(block, 'data-streaming', 'true');
    expect(await block.getAttribute('open')).toBeNull();
    expect(await text.isVisible()).toBe(false);
    await expectText(text, thought);

    await summary.click();
    await expect.poll(() => text.isVisible()).toBe(true);
    await expectText(text, thought);
    expect(await p.getByTestId('assistant-message').filter({ hasText: 'Hello! How can I help?' }).count()).toBe(0);

    llm.resume();
    await expectText(p.getByTestId('assistant-message'), 'Hello! How can I help?');
    await expectAttribute(block, 'data-streaming', 'false');
    await expectText(summary, /^Thinking$/);
    // Still open as the user left it, and still the whole thought.
    expect(await text.isVisible()).toBe(true);
    expect((await text.textContent())?.trim()).toBe(thought);
    await shot(p, 'ui-thinking.png');

    await summary.click();
    await expect.poll(() => text.isVisible()).toBe(false);

    // What Anthropic was asked, and what the page was sent: deltas first, the signed block last.
    const body = llm.requests.find((r) => r.path === '/v1/messages')?.body as AnthropicBody;
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.max_tokens).toBeGreaterThan(2048);
    expect(body).not.toHaveProperty('temperature');
    const events = ui.frames
      .map((f) => JSON.parse(f) as { type: string; name?: string; payload?: { text?: string; item?: { thinking?: unknown } } })
      .filter((f) => f.type === 'event');
    const deltas = events.filter((e) => e.name === 'assistant.thinking-delta');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((e) => e.payload?.text).join('')).toBe(thought);
    const doneAt = events.findIndex((e) => e.name === 'assistant.done');
    expect(events.findLastIndex((e) => e.name === 'assistant.thinking-delta')).toBeLessThan(doneAt);
    expect(events[doneAt]?.payload?.item?.thinking).toEqual([{ thinking: thought, signature: thinkingSignature(thought) }]);
  });
});
