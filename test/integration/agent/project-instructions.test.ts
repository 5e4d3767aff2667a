import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedLlm } from '../../fixtures/llm-server-parts/types';
import type { AppUnderTest } from '../../support/app-under-test';
import { startAppOver } from '../../support/app-over-protocol';
import { clonedRepo } from '../../support/cloned-repo';
import { systemPromptOf } from './support/request-parts';

// AGENTS.md files reach the model through both protocols (docs/agent.md#project-instructions): the
// repository's from its root down to the workspace (CLAUDE.md where a folder has none), the person's
// own from the data folder, re-read when one changes between turns, bounded, and — for the
// workspace's — only once the person trusts its folder. Never through a link, never waiting on a FIFO.

const ctx = { transport: 'websocket' as const };

describe.each(['openai', 'anthropic'] as const)('project instructions over %s', (protocol) => {
  let root: string;
  let repo: string;
  let workspace: string;
  let secret: string;
  let llm: ScriptedLlm;
  let aut: AppUnderTest;

  beforeAll(async () => {
    ({ root, repo } = clonedRepo('oi-agents-md-', 'repo', {
      'AGENTS.md': 'ROOT RULE: use pandas for tables.\n',
      'analysis/CLAUDE.md': 'NEAR RULE: plots in SVG.\n',
      'lib/AGENTS.md': 'SIBLING RULE: never read.\n',
    }));
    workspace = path.join(repo, 'analysis');
    secret = path.join(root, 'secret.txt');
    writeFileSync(secret, 'SECRET-TOKEN-9f2c\n');

    aut = await startAppOver(protocol, 'sk-test-agents');
    llm = aut.llm;
    writeFileSync(path.join(aut.dataDir, 'AGENTS.md'), 'MY RULE: answer in English.\n');
  });
  afterAll(async () => {
    await aut?.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function turn(conversationId: string, text: string): Promise<string> {
    const before = llm.requests.length;
    llm.enqueue({ kind: 'text', text: 'Noted.' });
    await aut.app.handlers['chat.send']({ conversationId, text }, ctx);
    await aut.app.context.agent.idle(conversationId);
    expect(llm.requests.length).toBe(before + 1);
    return systemPromptOf(llm.requests.at(-1)?.body, protocol);
  }

  it('gives the person’s own file at once, the workspace’s only after they trust its folder, nearest last, re-read when changed', async () => {
    const conv = await aut.app.handlers['conversation.create']({}, ctx);
    await aut.app.handlers['conversation.set-workspace']({ conversationId: conv.id, path: workspace }, ctx);

    const listed = await aut.app.handlers['instructions.list']({ conversationId: conv.id }, ctx);
    expect(listed.trustFolder).toBe(repo);
    expect(listed.trusted).toBe(false);
    expect(listed.files.map((f) => [f.path, f.scope, f.used])).toEqual([
      [path.join(aut.dataDir, 'AGENTS.md'), 'user', true],
      [path.join(repo, 'AGENTS.md'), 'workspace', false],
      [path.join(workspace, 'CLAUDE.md'), 'workspace', false],
    ]);

    // Not trusted: a stranger's text does not reach the model; the person's own does.
    const untrusted = await turn(conv.id, 'hello');
    expect(untrusted).toContain('MY RULE');
    expect(untrusted).not.toContain('ROOT RULE');
    expect(untrusted).not.toContain('NEAR RULE');

    const trusted = await aut.app.handlers['instructions.trust']({ conversationId: conv.id }, ctx);
    expect(trusted.trusted).toBe(true);
    expect(aut.app.context.settings.get().trustedFolders).toEqual([repo]);
    const prompt = await turn(conv.id, 'again');
    expect(prompt).toContain('where they disagree, the one nearest the workspace wins');
    const order = ['MY RULE', 'ROOT RULE', 'NEAR RULE'].map((rule) => prompt.indexOf(rule));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(prompt).not.toContain('SIBLING RULE');

    // Changed between turns: the next call reads the new text.
    writeFileSync(path.join(workspace, 'CLAUDE.md'), 'NEAR RULE v2: plots in PNG.\n');
    expect(await turn(conv.id, 'and now')).toContain('NEAR RULE v2');

    const read = await aut.app.handlers['instructions.read']({ conversationId: conv.id, path: path.join(repo, 'AGENTS.md') }, ctx);
    expect(read).toEqual({ text: 'ROOT RULE: use pandas for tables.\n', cut: false });
    // Only a listed file: the request is no way to read another path.
    await expect(aut.app.handlers['instructions.read']({ conversationId: conv.id, path: secret }, ctx)).rejects.toThrow(
      /is not one of this conversation's instruction files/,
    );
  });

  it('never follows a link named AGENTS.md, never waits on a FIFO, and cuts a long file with a note', async () => {
    const folder = path.join(root, `other-${protocol}`);
    mkdirSync(path.join(folder, 'sub'), { recursive: true });
    execFileSync('git', ['init', '-q', folder]);
    // The attack: a link the workspace's code planted, pointing at a file outside it.
    symlinkSync(secret, path.join(folder, 'AGENTS.md'));
    execFileSync('mkfifo', [path.join(folder, 'sub', 'AGENTS.md')]);
    writeFileSync(path.join(folder, 'sub', 'CLAUDE.md'), `LONG ${'x'.repeat(40 * 1024)}\n`);
    const conv = await aut.app.handlers['conversation.create']({}, ctx);
    await aut.app.handlers['conversation.set-workspace']({ conversationId: conv.id, path: path.join(folder, 'sub') }, ctx);
    await aut.app.handlers['instructions.trust']({ conversationId: conv.id }, ctx);
    // The twin: following the link, as a plain read does, gives the secret.
    expect(await readFile(path.join(folder, 'AGENTS.md'), 'utf8')).toContain('SECRET-TOKEN');

    const listed = await aut.app.handlers['instructions.list']({ conversationId: conv.id }, ctx);
    // The link and the FIFO are not files: no AGENTS.md in either folder, so sub's CLAUDE.md counts.
    expect(listed.files.filter((f) => f.scope === 'workspace').map((f) => f.path)).toEqual([path.join(folder, 'sub', 'CLAUDE.md')]);
    const prompt = await turn(conv.id, 'hi');
    expect(prompt).not.toContain('SECRET-TOKEN');
    expect(prompt).toContain('[… cut here: this file is longer than the 32 KB the app gives it]');
    expect((await aut.app.handlers['instructions.list']({ conversationId: conv.id }, ctx)).files.at(-1)?.cut).toBe(true);
  });
});
