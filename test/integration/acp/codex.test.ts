import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_PRESETS, defaultSettings, OPENAI_API_URL, type CellItem } from '@contract';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { providerAccount } from '../../../src-main/core/secrets/secret-store';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { codexAcp, type CodexAcp } from '../../support/acp-agents';
import { useCoreApps } from '../../support/core-apps';
import { agentText, hostedConversation } from '../../support/hosted-agent';
import { useScriptedLlms } from '../../support/scripted-llm';

// Codex hosted by our ACP client (docs/acp.md#hosting), through Zed's `@zed-industries/codex-acp`
// installed from npm (test/support/acp-agents.ts), offline: a custom model provider pointed at the
// scripted server's Responses API (the only wire protocol Codex speaks to one) and given the app's
// stored OpenAI key (`key: openai`, read by the provider's env_key). It runs in our sandbox, its network
// its provider alone through the app's proxy. Codex runs commands itself (its exec_command tool), never
// through terminal/*: what holds them is its permission request (our approval card), the checkpoints
// around the call, and the sandbox around its process.

const core = useCoreApps('oi-codex-');
const startLlm = useScriptedLlms();
const KEY = 'sk-scripted-codex-0123456789';
let codex: CodexAcp;
beforeAll(async () => {
  codex = await codexAcp();
}, 300_000);

describe('Codex (codex-acp) hosted against the scripted OpenAI server', () => {
  it('runs a command after our approval card, in one checkpointed cell; its write outside the workspace is refused', async () => {
    const llm = await startLlm();
    const outside = core.tempDir();
    const workspace = path.join(core.tempDir(), 'ws');
    // Codex asks before a command that wants to leave its own sandbox ("require_escalated"): that
    // request is our card. The command then runs in ours.
    const cmd = `echo ran > ran.txt; echo escaped > ${outside}/by-codex.txt || echo outside refused`;
    llm.enqueue(
      {
        kind: 'tool',
        calls: [{ name: 'exec_command', arguments: { cmd, sandbox_permissions: 'require_escalated', justification: 'make ran.txt' } }],
      },
      { kind: 'text', text: 'all done' },
    );
    const secrets = new MemorySecretStore();
    await secrets.set(providerAccount('openai'), KEY);
    // Settings → Agents' Codex preset, with OpenAI's address replaced by the scripted server's.
    const preset = AGENT_PRESETS.find((p) => p.name === 'Codex')?.spec;
    if (!preset) throw new Error('no Codex preset');
    const here = (text: string) => text.replaceAll(OPENAI_API_URL, llm.openaiBaseUrl);
    const settings = new MemorySettingsStore({
      // Its files are in the test tools' cache under the home, which the sandbox hides: shown read-only.
      sandbox: { ...defaultSettings.sandbox, extraPaths: [codex.dir] },
      agents: {
        Codex: {
          command: process.execPath,
          args: [codex.codexAcp, '-c', 'model="gpt-test"', ...preset.args.map(here)],
          env: Object.fromEntries(Object.entries(preset.env).map(([k, v]) => [k, here(v)])),
          key: preset.key,
        },
      },
    });
    const app = core.app(settings, secrets);
    const host = await hostedConversation(app, workspace, undefined, 'Codex');
    host.answers.push('approve');
    const conv = await host.send('make ran.txt');

    expect(agentText(conv)).toContain('all done');
    const calls = llm.requests.filter((r) => r.path === '/v1/responses');
    expect(calls).toHaveLength(2);
    expect(calls.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(host.asked).toHaveLength(1);
    // One call, one cell: the one the card was on, though Codex announced the call after asking.
    const cells = conv.items.filter((i): i is CellItem => i.kind === 'cell');
    expect(cells).toHaveLength(1);
    expect(cells[0]).toMatchObject({ language: 'mcp:acp/execute', status: 'done', approval: 'user', mcp: { server: 'Codex' } });
    expect(cells[0]?.changes?.files).toEqual([expect.objectContaining({ path: 'ran.txt', change: 'created' })]);
    expect(fs.readFileSync(path.join(workspace, 'ran.txt'), 'utf8')).toBe('ran\n');
    // The sandbox around Codex's process kept its command's write out of the folder beside the workspace.
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(JSON.stringify(calls[1]?.body)).toContain('outside refused');
    // What the command printed is in its cell (Codex sends it only as rawOutput).
    const printed = (cells[0]?.outputs ?? []).map((o) => (o.output_type === 'stream' ? o.text : '')).join('');
    // (Its stdout and stderr come through one terminal, in whichever order the machine's timing gave.)
    expect(printed).toMatch(/by-codex\.txt: No such file or directory/);
    expect(printed).toContain('outside refused');
  });
});
