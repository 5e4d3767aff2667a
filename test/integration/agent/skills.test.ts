import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellItem } from '@contract';
import type { ScriptedLlm } from '../../fixtures/llm-server-parts/types';
import type { AppUnderTest } from '../../support/app-under-test';
import { startAppOver } from '../../support/app-over-protocol';
import { clonedRepo } from '../../support/cloned-repo';
import { lastRequestText, systemPromptOf, toolNamesOf } from './support/request-parts';

// Agent Skills through full agent turns with the scripted model, on both protocols
// (docs/agent.md#skills): the three skills of test/fixtures/skills, written in the public SKILL.md
// format. The person's skills are offered by name and description only; the model loads a body and
// reads a resource on demand, each shown as a skill cell; a workspace's skill is not offered — its
// name, description and body never reach the provider — until the person trusts the folder; a
// skill's Python script runs through the exec engine in the sandbox, where the skills folder is
// readable and not writable.

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/skills');
const ctx = { transport: 'websocket' as const };
const SANDBOX_ON = { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] };

describe.each(['openai', 'anthropic'] as const)('skills over %s', (protocol) => {
  let root: string;
  let workspace: string;
  let llm: ScriptedLlm;
  let aut: AppUnderTest;

  beforeAll(async () => {
    ({ root, repo: workspace } = clonedRepo('oi-skills-', 'cloned-repo'));
    cpSync(path.join(FIXTURES, 'release-notes'), path.join(workspace, '.agents', 'skills', 'release-notes'), { recursive: true });

    aut = await startAppOver(protocol, 'sk-test-skills', { autoRun: true });
    llm = aut.llm;
    for (const skill of ['chart-maker', 'brand-colors'])
      await aut.app.handlers['skills.install']({ path: path.join(FIXTURES, skill) }, ctx);
  });
  afterAll(async () => {
    await aut?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const skillFolder = (name: string) => path.join(aut.dataDir, 'skills', name);

  async function send(conversationId: string, text: string): Promise<CellItem[]> {
    await aut.app.handlers['chat.send']({ conversationId, text }, ctx);
    await aut.app.context.agent.idle(conversationId);
    const conv = await aut.app.context.agent.snapshot(conversationId);
    return conv.items.filter((i): i is CellItem => i.kind === 'cell');
  }

  it('offers names and descriptions, loads a body and a resource on demand, and keeps an untrusted workspace’s skill from the model until trusted', async () => {
    const conv = await aut.app.handlers['conversation.create']({}, ctx);
    await aut.app.handlers['conversation.set-workspace']({ conversationId: conv.id, path: workspace }, ctx);
    const listed = await aut.app.handlers['skills.list']({ conversationId: conv.id }, ctx);
    expect(listed.trusted).toBe(false);
    expect(listed.skills.map((s) => [s.name, s.source, s.trusted, s.broken])).toEqual([
      ['brand-colors', 'user', true, null],
      ['chart-maker', 'user', true, null],
      ['release-notes', 'workspace', false, null],
    ]);

    const before = llm.requests.length;
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'k1', name: 'load_skill', arguments: { name: 'brand-colors' } }] },
      { kind: 'tool', calls: [{ id: 'k2', name: 'read_skill_file', arguments: { name: 'brand-colors', path: 'reference/colors.md' } }] },
      // A guessed name of the workspace's skill, and a path out of a skill's folder: neither is read.
      { kind: 'tool', calls: [{ id: 'k3', name: 'load_skill', arguments: { name: 'release-notes' } }] },
      {
        kind: 'tool',
        calls: [{ id: 'k4', name: 'read_skill_file', arguments: { name: 'brand-colors', path: '../chart-maker/SKILL.md' } }],
      },
      { kind: 'text', text: 'The primary colour is #0b5fff.' },
    );
    const cells = await send(conv.id, 'Which colour should the chart use?');
    const calls = llm.requests.slice(before);
    expect(calls).toHaveLength(5);

    const prompt = systemPromptOf(calls[0]?.body, protocol);
    expect(prompt).toContain('# Skills');
    expect(prompt).toContain('- brand-colors: The house colours for charts and slides.');
    expect(prompt).toContain('- chart-maker: Makes a bar chart PNG');
    // Names and descriptions only: no body goes into the prompt.
    expect(prompt).not.toContain('BRAND-COLORS-BODY');
    expect(toolNamesOf(calls[0]?.body, protocol)).toEqual(expect.arrayContaining(['execute', 'load_skill', 'read_skill_file']));

    expect(lastRequestText(calls[1]?.body)).toContain('BRAND-COLORS-BODY');
    expect(lastRequestText(calls[1]?.body)).toContain(`its folder is ${skillFolder('brand-colors')}`);
    expect(lastRequestText(calls[1]?.body)).toContain('Files: reference/colors.md');
    expect(lastRequestText(calls[2]?.body)).toContain('COLORS-RESOURCE-MARKER');
    expect(lastRequestText(calls[3]?.body)).toContain('there is no skill called \\"release-notes\\"');
    expect(lastRequestText(calls[4]?.body)).toContain('is not a path inside the skill’s folder');
    // The stranger's skill: not its name in the prompt, not its description, not its body, anywhere.
    for (const call of calls) {
      expect(systemPromptOf(call.body, protocol)).not.toContain('release-notes');
      expect(JSON.stringify(call.body)).not.toMatch(/UNTRUSTED-(SKILL|BODY)-MARKER/);
    }
    // What the person sees: each use as a skill cell (the UI's "Using skill" row, the CLI's line).
    expect(cells.map((c) => [c.language, JSON.parse(c.code) as unknown, c.status])).toEqual([
      ['skill:load', { name: 'brand-colors' }, 'done'],
      ['skill:read', { name: 'brand-colors', path: 'reference/colors.md' }, 'done'],
      ['skill:load', { name: 'release-notes' }, 'failed'],
      ['skill:read', { name: 'brand-colors', path: '../chart-maker/SKILL.md' }, 'failed'],
    ]);

    // Trusted: the workspace's skill is offered from the next call, and loads.
    await aut.app.handlers['instructions.trust']({ conversationId: conv.id }, ctx);
    expect((await aut.app.handlers['skills.list']({ conversationId: conv.id }, ctx)).skills.at(-1)).toMatchObject({
      name: 'release-notes',
      trusted: true,
    });
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'k5', name: 'load_skill', arguments: { name: 'release-notes' } }] },
      { kind: 'text', text: 'ok' },
    );
    await send(conv.id, 'Now the release notes.');
    expect(systemPromptOf(llm.requests.at(-2)?.body, protocol)).toContain('- release-notes: UNTRUSTED-SKILL-MARKER');
    expect(lastRequestText(llm.requests.at(-1)?.body)).toContain('UNTRUSTED-BODY-MARKER');
  });

  it('runs a skill’s Python script through the exec engine in the sandbox, which can read the skills folder but not write it', async () => {
    aut.app.context.settings.update({ sandbox: SANDBOX_ON });
    const conv = await aut.app.handlers['conversation.create']({}, ctx);
    const charts = path.join(root, `charts-${protocol}`);
    mkdirSync(charts);
    await aut.app.handlers['conversation.set-workspace']({ conversationId: conv.id, path: charts }, ctx);
    const script = path.join(skillFolder('chart-maker'), 'scripts', 'bar_chart.py');
    // Then: write into the skill (refused), and look at the data folder, of which only skills/ is shown.
    const tryWrite = `echo changed > ${path.join(skillFolder('chart-maker'), 'SKILL.md')} && echo WROTE || echo REFUSED; echo "DATA: $(ls -A ${aut.dataDir} | tr '\\n' ' ')"`;
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c1', name: 'load_skill', arguments: { name: 'chart-maker' } }] },
      {
        kind: 'tool',
        calls: [
          { id: 'c2', name: 'execute', arguments: { language: 'shell', code: `/usr/bin/python3 ${script} apples=3 pears=5 chart.png` } },
        ],
      },
      { kind: 'tool', calls: [{ id: 'c3', name: 'execute', arguments: { language: 'shell', code: tryWrite } }] },
      { kind: 'text', text: 'Here is the chart.' },
    );
    const cells = await send(conv.id, 'Make a bar chart of 3 apples and 5 pears.');
    expect(lastRequestText(llm.requests.at(-3)?.body)).toContain(`python3 ${path.join(skillFolder('chart-maker'), 'scripts')}`);
    const [load, chart, write] = cells;
    expect(load).toMatchObject({ language: 'skill:load', status: 'done' });
    expect(chart?.limits?.sandbox).toContain('bubblewrap');
    // Named where the sandbox is described, the same sentence in Settings as on the cell.
    expect(chart?.limits?.sandbox).toContain(`${path.join(aut.dataDir, 'skills')} (read-only)`);
    expect((await aut.app.handlers['sandbox.status']({}, ctx)).description).toBe(chart?.limits?.sandbox);
    expect(chart?.status, chart?.resultForModel ?? '').toBe('done');
    expect(chart?.resultForModel).toMatch(/CHART-SAVED chart\.png \d+ bytes/);
    expect(readFileSync(path.join(charts, 'chart.png')).subarray(1, 4).toString('latin1')).toBe('PNG');
    // Read-only inside the sandbox: a cell cannot change what the app later gives the model.
    expect(write?.resultForModel).toContain('REFUSED');
    expect(write?.resultForModel).toMatch(/^DATA: skills $/m);
    expect(readdirSync(aut.dataDir).length).toBeGreaterThan(1);
    expect(readFileSync(path.join(skillFolder('chart-maker'), 'SKILL.md'), 'utf8')).toContain('CHART-MAKER-BODY');
    expect(existsSync(path.join(charts, 'chart.png'))).toBe(true);
  });
});
