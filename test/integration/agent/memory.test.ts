import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellItem } from '@contract';
import { skillUseText } from '@contract/skill-use';
import type { ScriptedLlm } from '../../fixtures/llm-server-parts/types';
import type { AppUnderTest } from '../../support/app-under-test';
import { startAppOver } from '../../support/app-over-protocol';
import { systemPromptOf, toolNamesOf } from './support/request-parts';

// Memory through full agent turns with the scripted model, on both protocols (docs/agent.md#memory):
// the model saves a note with save_memory; the person sees it as one line and finds it in the file
// (Settings → Memory reads it); the person edits the file; a new conversation's system prompt carries
// the edited note. With the setting off the tool is not offered and nothing is included.

const ctx = { transport: 'websocket' as const };

describe.each(['openai', 'anthropic'] as const)('memory over %s', (protocol) => {
  let llm: ScriptedLlm;
  let aut: AppUnderTest;

  beforeAll(async () => {
    aut = await startAppOver(protocol, 'sk-test-memory', { autoRun: true });
    llm = aut.llm;
  });
  afterAll(async () => {
    await aut?.close();
  });

  const turn = async (text: string) => {
    const conv = await aut.app.handlers['conversation.create']({}, ctx);
    const from = llm.requests.length;
    await aut.app.handlers['chat.send']({ conversationId: conv.id, text }, ctx);
    await aut.app.context.agent.idle(conv.id);
    return { conv: await aut.app.handlers['conversation.get']({ conversationId: conv.id }, ctx), sent: llm.requests.slice(from) };
  };

  it('is added (shown as one line), edited in the file, and used in a new conversation; off, neither offered nor included', async () => {
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'm1', name: 'save_memory', arguments: { note: 'The survey data is in ~/survey;\n plots in SVG.' } }] },
      { kind: 'text', text: 'Noted.' },
    );
    const first = await turn('Remember: the survey data is in ~/survey, and I want plots in SVG.');
    expect(toolNamesOf(first.sent[0]?.body, protocol)).toContain('save_memory');
    const cell = first.conv.items.find((i): i is CellItem => i.kind === 'cell');
    expect(cell).toMatchObject({ language: 'memory:save', status: 'done' });
    // What the person sees, in the UI's row and oi's line.
    expect(cell && skillUseText(cell)).toBe('Remembered: The survey data is in ~/survey; plots in SVG.');
    const file = path.join(aut.dataDir, 'memory.md');
    expect(readFileSync(file, 'utf8')).toBe('- The survey data is in ~/survey; plots in SVG.\n');
    expect(await aut.app.handlers['memory.read']({}, ctx)).toEqual({
      path: file,
      text: '- The survey data is in ~/survey; plots in SVG.\n',
    });

    // The person edits the file (by hand, or in Settings → Memory).
    writeFileSync(file, '- The survey data is in ~/survey-2026; plots in SVG.\n');
    llm.enqueue({ kind: 'text', text: 'Using ~/survey-2026.' });
    const second = await turn('Plot the survey.');
    const prompt = systemPromptOf(second.sent[0]?.body, protocol);
    expect(prompt).toContain('# Memory');
    expect(prompt).toContain('- The survey data is in ~/survey-2026; plots in SVG.');
    expect(prompt).not.toContain('~/survey;');

    await aut.app.handlers['settings.set']({ memory: false }, ctx);
    llm.enqueue({ kind: 'text', text: 'No memory.' });
    const off = await turn('Plot it again.');
    expect(systemPromptOf(off.sent[0]?.body, protocol)).not.toMatch(/# Memory|survey-2026/);
    expect(toolNamesOf(off.sent[0]?.body, protocol)).not.toContain('save_memory');
    await aut.app.handlers['settings.set']({ memory: true }, ctx);
    expect((await aut.app.handlers['memory.write']({ text: '' }, ctx)).text).toBe('');
  });
});
