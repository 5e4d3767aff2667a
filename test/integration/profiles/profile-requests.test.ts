import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type {} from '../../../src-main/core/app';
import { useRequestApp } from '../../support/request-app';
import { profilesFolder } from '../../../src-main/core/profiles/profile-store';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { SANDBOX_CHOSEN_OFF } from '../../support/sandbox-choice';
import { systemPromptOf } from '../agent/support/request-parts';

// The profiles requests (docs/agent.md#profiles) through the dispatcher both transports call: the
// contract's checks, the store in the data folder, and a chosen profile reaching the model's request.

let llm: ScriptedLlm;
let settings: MemorySettingsStore;
const t = useRequestApp('oi-profile-requests-', {
  once: true,
  async stores() {
    llm = await startScriptedLlm();
    const secrets = new MemorySecretStore();
    await secrets.set('provider:openai', 'sk-test-profiles');
    settings = new MemorySettingsStore({ provider: 'openai', baseUrl: llm.openaiBaseUrl, model: 'gpt-plain', ...SANDBOX_CHOSEN_OFF });
    return { settings, secrets };
  },
});
afterAll(async () => {
  await llm?.close();
});
const call = t.call;

describe('profiles requests', () => {
  it('refuses a name that is a path or a wrong field with an error naming the problem, and writes nothing', async () => {
    for (const name of ['../settings', '/tmp/x', '.hidden', '']) {
      const res = await t.dispatch('profiles.save', { name, profile: { model: 'gpt-x' } });
      expect(res.ok).toBe(false);
      if (!res.ok) expect(res.error.message).toMatch(/profiles\.save: .*profile name is 1-64 letters/);
    }
    const wrongField = await t.dispatch('profiles.save', { name: 'ok', profile: { temperature: 2 } });
    expect(wrongField.ok).toBe(false);
    if (!wrongField.ok) expect(wrongField.error.message).toMatch(/temperature/);
    const unknown = await t.dispatch('profiles.apply', { name: 'nobody' });
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error.message).toMatch(/there is no profile "nobody"/);
    expect(existsSync(path.join(t.dataDir, 'settings.json'))).toBe(false);
    expect(await call('profiles.list', {})).toEqual([]);
    expect(settings.get().model).toBe('gpt-plain');
  });

  it('saves, renames, lists and deletes profiles, listing a bad file with its problem', async () => {
    await call('profiles.save', { name: 'draft', profile: { model: 'gpt-a', autoRun: true } });
    const renamed = await call('profiles.save', { name: 'analyst', previousName: 'draft', profile: { model: 'gpt-b', autoRun: true } });
    expect(renamed).toEqual([{ name: 'analyst', profile: { model: 'gpt-b', autoRun: true } }]);
    writeFileSync(path.join(profilesFolder(t.dataDir), 'broken.json'), '{ not json');
    const listed = (await call('profiles.list', {})) as Array<{ name: string; profile: unknown; error?: string }>;
    expect(listed.map((e) => e.name)).toEqual(['analyst', 'broken']);
    expect(listed[1]?.profile).toBeNull();
    expect(listed[1]?.error).toMatch(/profile "broken" .* is not JSON/);
    expect(await call('profiles.delete', { name: 'broken' })).toEqual([{ name: 'analyst', profile: { model: 'gpt-b', autoRun: true } }]);
    await call('profiles.delete', { name: 'analyst' });
    expect(await call('profiles.list', {})).toEqual([]);
  });

  it("a chosen profile's model and instructions reach the scripted model's request", async () => {
    const MARKER = 'Answer like a pirate (profile instructions).';
    await call('profiles.save', {
      name: 'pirate',
      profile: { provider: 'openai', model: 'gpt-pirate-1', baseUrl: llm.openaiBaseUrl, instructions: MARKER },
    });
    const conv = (await call('conversation.create', {})) as { id: string };
    await call('profiles.apply', { name: 'pirate', conversationId: conv.id });
    const snapshot = (await call('conversation.get', { conversationId: conv.id })) as { modelChoice?: { model: string } };
    expect(snapshot.modelChoice?.model).toBe('gpt-pirate-1');

    const before = llm.requests.length;
    llm.enqueue({ kind: 'text', text: 'Arr.' });
    await call('chat.send', { conversationId: conv.id, text: 'hello' });
    await t.app.context.agent.idle(conv.id);
    expect(llm.requests.length).toBe(before + 1);
    const body = llm.requests.at(-1)?.body as { model: string };
    expect(body.model).toBe('gpt-pirate-1');
    expect(systemPromptOf(body, 'openai')).toContain(MARKER);
  });

  it("with keepSettings (oi --profile) binds the conversation and sets its model, Settings' own model unchanged; without, Settings follows", async () => {
    await call('profiles.save', { name: 'keeper', profile: { model: 'gpt-keeper-1' } });
    const before = settings.get().model;
    const kept = (await call('conversation.create', {})) as { id: string };
    await call('profiles.apply', { name: 'keeper', conversationId: kept.id, keepSettings: true });
    const snapshot = (await call('conversation.get', { conversationId: kept.id })) as { profile?: string; modelChoice?: { model: string } };
    expect(snapshot).toMatchObject({ profile: 'keeper', modelChoice: { model: 'gpt-keeper-1' } });
    expect(settings.get().model).toBe(before);
    // The twin: the app's Profile menu (no keepSettings) makes it Settings' model for new conversations.
    const picked = (await call('conversation.create', {})) as { id: string };
    await call('profiles.apply', { name: 'keeper', conversationId: picked.id });
    expect(settings.get().model).toBe('gpt-keeper-1');
    settings.update({ model: before });
    await call('profiles.delete', { name: 'keeper' });
  });

  it('a conversation bound to a profile takes its instructions and skills at each turn, Settings unchanged; unbound, Settings again', async () => {
    for (const [name, description] of [
      ['alpha-skill', 'ALPHA-DESCRIPTION charts'],
      ['beta-skill', 'BETA-DESCRIPTION tables'],
    ] as const) {
      mkdirSync(path.join(t.dataDir, 'skills', name), { recursive: true });
      writeFileSync(path.join(t.dataDir, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nBody.\n`);
    }
    const MARKER = 'Only charts here (bound profile).';
    await call('profiles.save', { name: 'charts', profile: { instructions: MARKER, skills: ['alpha-skill'] } });
    const bound = (await call('conversation.create', {})) as { id: string };
    await call('profiles.apply', { name: 'charts', conversationId: bound.id });
    expect(((await call('conversation.get', { conversationId: bound.id })) as { profile?: string }).profile).toBe('charts');
    expect(settings.get().customInstructions).toBe('');
    const promptOf = async (conversationId: string): Promise<string> => {
      llm.enqueue({ kind: 'text', text: 'Ok.' });
      await call('chat.send', { conversationId, text: 'hello' });
      await t.app.context.agent.idle(conversationId);
      return systemPromptOf(llm.requests.at(-1)?.body, 'openai');
    };
    const boundPrompt = await promptOf(bound.id);
    expect(boundPrompt).toContain(MARKER);
    expect(boundPrompt).toContain('ALPHA-DESCRIPTION');
    expect(boundPrompt).not.toContain('BETA-DESCRIPTION');
    // Twin: another conversation, not bound, has Settings' instructions and every skill.
    const plain = (await call('conversation.create', {})) as { id: string };
    const plainPrompt = await promptOf(plain.id);
    expect(plainPrompt).not.toContain(MARKER);
    expect(plainPrompt).toContain('BETA-DESCRIPTION');
    // An edited profile counts at the next turn; unbinding (explicit) brings Settings back.
    await call('profiles.save', { name: 'charts', profile: { instructions: `${MARKER} Edited.`, skills: ['alpha-skill'] } });
    expect(await promptOf(bound.id)).toContain(`${MARKER} Edited.`);
    await call('profiles.apply', { name: null, conversationId: bound.id });
    const unbound = await promptOf(bound.id);
    expect(unbound).not.toContain(MARKER);
    expect(unbound).toContain('BETA-DESCRIPTION');
  });

  it('stops the turn of a conversation whose profile can no longer be read, naming the problem; nothing reaches the model', async () => {
    await call('profiles.save', { name: 'doomed', profile: { instructions: 'x' } });
    const conv = (await call('conversation.create', {})) as { id: string };
    await call('profiles.apply', { name: 'doomed', conversationId: conv.id });
    await call('profiles.delete', { name: 'doomed' });
    const before = llm.requests.length;
    await call('chat.send', { conversationId: conv.id, text: 'hello' });
    await t.app.context.agent.idle(conv.id);
    expect(llm.requests.length).toBe(before);
    const items = ((await call('conversation.get', { conversationId: conv.id })) as { items: Array<{ kind: string; text?: string }> })
      .items;
    expect(items.find((i) => i.kind === 'notice')?.text).toMatch(/profile cannot be used \(there is no profile "doomed"/);
  });
});
