import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '@contract';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { REPO_ROOT } from '../../support/app-under-test';
import { useCoreApps } from '../../support/core-apps';
import { agentText, hostedConversation, withScriptedAgent } from '../../support/hosted-agent';
import { useScriptedLlms } from '../../support/scripted-llm';

// A hosted ACP agent's own network (docs/acp.md#hosting, docs/security.md): in the sandbox it has none
// of its own; the app's proxy lets it reach its provider — the URL the person gave it — and nothing
// else. The attack: the agent (the scripted one of test/fixtures/acp, a real process) fetches another
// server on this machine, through the proxy and straight to it. The twin: with the sandbox's network
// allowed, which is what every hosted agent got before, the same fetch reaches the server.

const core = useCoreApps('oi-agent-net-');
const startLlm = useScriptedLlms();
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** A server on 127.0.0.1 holding something the agent must not reach; counts who reached it. */
async function localSecret(): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end('the local secret');
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/secret`, hits: () => hits };
}

describe("a hosted agent's own network", () => {
  it('reaches its provider through the proxy; another server on this machine is refused, saying why, and sees nothing', async () => {
    const llm = await startLlm();
    const secret = await localSecret();
    const app = core.app(new MemorySettingsStore(withScriptedAgent({}, { ANTHROPIC_BASE_URL: llm.url })));
    const host = await hostedConversation(app, path.join(core.tempDir(), 'ws'));
    const conv = await host.send(`fetch ${llm.url}/v1/models\nfetch ${secret.url}`);
    const [provider = '', other = ''] = agentText(conv).split(/(?=fetch via proxy)/);

    // The provider, on this machine too, is reached through the proxy (the sandbox's own loopback has no server).
    expect(provider).toContain('fetch via proxy: 200 ');
    expect(provider).toContain('scripted-model');
    expect(provider).toContain('fetch direct: ECONNREFUSED');
    expect(llm.requests.some((r) => r.path === '/v1/models')).toBe(true);

    const port = new URL(secret.url).port;
    expect(other).toContain(`fetch via proxy: 403 `);
    expect(other).toContain(
      `Refused by the sandbox: the agent "scripted" may reach only its provider (127.0.0.1:${new URL(llm.url).port})`,
    );
    expect(other).toContain(`127.0.0.1:${port} is none of them`);
    expect(other).toContain('fetch direct: ECONNREFUSED');
    expect(secret.hits()).toBe(0);
  });

  it('twin: with the sandbox’s network allowed (every hosted agent’s network before), the agent reaches the other server', async () => {
    const llm = await startLlm();
    const secret = await localSecret();
    const sandbox = { ...defaultSettings.sandbox, extraPaths: [REPO_ROOT], allowNetwork: true };
    const app = core.app(new MemorySettingsStore(withScriptedAgent({ sandbox }, { ANTHROPIC_BASE_URL: llm.url })));
    const host = await hostedConversation(app, path.join(core.tempDir(), 'ws'));
    const conv = await host.send(`fetch ${secret.url}`);
    expect(agentText(conv)).toContain('fetch direct: 200 the local secret');
    expect(secret.hits()).toBe(1);
  });
});
