import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentHarness } from '../../support/agent-harness';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function sendWithImage(harness: AgentHarness, attachmentPath: string): Promise<void> {
  const id = await harness.newConversation();
  const conv = await harness.store.get(id);
  mkdirSync(path.join(conv.workspace, 'attachments'), { recursive: true });
  writeFileSync(path.join(conv.workspace, 'attachments', 'dot.png'), PNG);
  writeFileSync(path.join(path.dirname(conv.workspace), 'outside.png'), PNG);
  await harness.agent.send(id, 'what is in this picture?', [
    { path: attachmentPath, name: path.basename(attachmentPath), mime: 'image/png', size: PNG.length },
  ]);
  await harness.agent.idle(id);
}

describe('image attachments', () => {
  it('reach OpenAI as a base64 image part read from the workspace', async () => {
    const h = await startHarness();
    h.llm.enqueue({ kind: 'text', text: 'A single dot.' });
    await sendWithImage(h, 'attachments/dot.png');
    const user = (h.bodies()[0] as { messages: Array<{ role: string; content: unknown }> }).messages[1];
    expect(user?.content).toEqual([
      { type: 'text', text: expect.stringContaining('[Attached image: dot.png at attachments/dot.png in the workspace]') },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
    ]);
  });

  it('reach Anthropic as a base64 image block', async () => {
    const h = await startHarness({ protocol: 'anthropic' });
    h.llm.enqueue({ kind: 'text', text: 'A single dot.' });
    await sendWithImage(h, 'attachments/dot.png');
    const user = (h.bodies()[0] as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> }).messages[0];
    expect(user?.content[0]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') } });
  });

  it('are never read from outside the workspace', async () => {
    const h = await startHarness();
    h.llm.enqueue({ kind: 'text', text: 'I cannot see it.' });
    await sendWithImage(h, '../outside.png');
    const user = (h.bodies()[0] as { messages: Array<{ role: string; content: unknown }> }).messages[1];
    expect(typeof user?.content).toBe('string');
    expect(user?.content).toContain('[Attached file: outside.png');
  });

  it('are named, not sent, to a model without vision', async () => {
    const h = await startHarness({ settings: { model: 'gpt-3.5-turbo' } });
    h.llm.enqueue({ kind: 'text', text: 'No eyes.' });
    await sendWithImage(h, 'attachments/dot.png');
    const user = (h.bodies()[0] as { messages: Array<{ role: string; content: unknown }> }).messages[1];
    expect(user?.content).toEqual(
      expect.stringContaining('[Attached file: dot.png (image/png, 70 bytes) at attachments/dot.png in the workspace]'),
    );
  });
});
