import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSkills } from '../../../src-main/core/agent/skills/skill-discovery';
import { skillsPromptSection } from '../../../src-main/core/agent/skills/skill-prompt';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';
import { clonedRepo, writeFiles } from '../../support/cloned-repo';
import { systemPromptOf } from '../../integration/agent/support/request-parts';

// Issue 28: a workspace's skill is text a stranger may have written (a cloned repository). Until the
// person trusts the folder, its name, description and body never reach the model's provider, and the
// skill tools cannot load it, whatever name the model guesses. The attack: a skill in .agents/skills
// whose description instructs the model, and a model that asks for it by name. The twin: the same
// skill with the trust check out of the way reaches the provider's request.

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/skills');
const ctx = { transport: 'websocket' as const };
const MARKERS = /UNTRUSTED-(SKILL|BODY)-MARKER|attacker\.example/;

describe('an untrusted workspace skill never reaches the model (issue 28)', () => {
  let root: string;
  let workspace: string;
  let aut: AppUnderTest;

  beforeAll(async () => {
    ({ root, repo: workspace } = clonedRepo('oi-skill-attack-', 'cloned'));
    cpSync(path.join(FIXTURES, 'release-notes'), path.join(workspace, '.claude', 'skills', 'release-notes'), { recursive: true });
    aut = await startAppUnderTest({ autoRun: true });
    // One skill of the person's own, so the skill tools are offered at all.
    await aut.app.handlers['skills.install']({ path: path.join(FIXTURES, 'brand-colors') }, ctx);
  });
  afterAll(async () => {
    await aut?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** A new conversation in `folder`. */
  async function conversationIn(folder: string): Promise<string> {
    const conv = await aut.app.handlers['conversation.create']({}, ctx);
    await aut.app.handlers['conversation.set-workspace']({ conversationId: conv.id, path: folder }, ctx);
    return conv.id;
  }

  /** A turn in which the model makes each tool call in turn, then answers: the requests the provider received. */
  async function turn(conversationId: string, text: string, ...calls: Array<{ name: string; arguments: Record<string, string> }>) {
    const before = aut.llm.requests.length;
    aut.llm.enqueue(...calls.map((call, i) => ({ kind: 'tool' as const, calls: [{ id: `c${i}`, ...call }] })), {
      kind: 'text',
      text: 'Done.',
    });
    await aut.app.handlers['chat.send']({ conversationId, text }, ctx);
    await aut.app.context.agent.idle(conversationId);
    return aut.llm.requests.slice(before);
  }

  it('neither its description nor its files reach the provider before the folder is trusted; the twin with the check out of the way does', async () => {
    const conversationId = await conversationIn(workspace);
    const sent = await turn(
      conversationId,
      'Write the release notes.',
      { name: 'load_skill', arguments: { name: 'release-notes' } },
      { name: 'read_skill_file', arguments: { name: 'release-notes', path: 'SKILL.md' } },
    );
    expect(sent).toHaveLength(3);
    expect(systemPromptOf(sent[0]?.body, 'openai')).toContain('- brand-colors:');
    for (const request of sent) expect(JSON.stringify(request.body)).not.toMatch(MARKERS);
    // Found and shown to the person, marked as not trusted.
    const listed = await aut.app.handlers['skills.list']({ conversationId }, ctx);
    expect(listed.skills.find((s) => s.name === 'release-notes')).toMatchObject({ source: 'workspace', trusted: false, broken: null });

    // Twin, without the trust check: the same skills built into the prompt as if every folder were
    // trusted carry the stranger's instruction…
    const unchecked = await findSkills(workspace, { dataDir: aut.dataDir, trusted: () => ['/'] });
    expect(skillsPromptSection(unchecked.skills, true)).toMatch(MARKERS);
    // …and once the person does trust the folder, the same turn sends it to the provider.
    await aut.app.handlers['instructions.trust']({ conversationId }, ctx);
    const after = (await turn(conversationId, 'Again.', { name: 'load_skill', arguments: { name: 'release-notes' } })).map((r) =>
      JSON.stringify(r.body),
    );
    expect(after[0]).toMatch(/UNTRUSTED-SKILL-MARKER/);
    expect(after[1]).toMatch(/UNTRUSTED-BODY-MARKER/);
  });

  it('a trusted workspace’s skill that is a link, or whose SKILL.md is one, is never read through it', async () => {
    const folder = path.join(root, 'linked');
    const skills = path.join(folder, '.agents', 'skills');
    mkdirSync(path.join(skills, 'notes'), { recursive: true });
    execFileSync('git', ['init', '-q', folder]);
    const outside = path.join(root, 'outside-skill');
    writeFiles(outside, { 'SKILL.md': '---\nname: outside\ndescription: SECRET-OUTSIDE-MARKER\n---\nSECRET-OUTSIDE-BODY\n' });
    // The attack: links the repository's code planted, to files outside it.
    symlinkSync(outside, path.join(skills, 'outside'));
    symlinkSync(path.join(outside, 'SKILL.md'), path.join(skills, 'notes', 'SKILL.md'));
    aut.app.context.settings.update({ trustedFolders: [...aut.app.context.settings.get().trustedFolders, folder] });
    // The twin: a plain read follows the link to the outside file.
    expect(readFileSync(path.join(skills, 'notes', 'SKILL.md'), 'utf8')).toContain('SECRET-OUTSIDE-MARKER');

    const found = await findSkills(folder, { dataDir: null, trusted: () => [folder] });
    expect(found.skills.map((s) => [s.name, s.broken?.includes('symbolic link') ?? false])).toEqual([
      ['notes', true],
      ['outside', true],
    ]);
    const sent = await turn(await conversationIn(folder), 'Use the notes skill.', { name: 'load_skill', arguments: { name: 'outside' } });
    for (const request of sent) expect(JSON.stringify(request.body)).not.toMatch(/SECRET-OUTSIDE/);
  });
});
