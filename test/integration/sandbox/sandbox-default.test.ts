import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyEvent, EventPayload } from '@contract';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';
import { PROXIED_HOST, startHostServer, type HostServer } from '../../support/host-server';
import { sandboxVisibleScratch } from '../../support/sandbox-visible-scratch';
import { logLines } from '../../support/log-lines';

// The sandbox as a person gets it without touching Settings: on, through full agent turns of the real
// app (docs/sandbox.md "On by default"). A cell cannot write outside its workspace; the twin, an app
// where the person turned the sandbox off, can. Then the network: a host that is not a registry is
// asked about in the conversation (network.awaiting-approval), and the answer holds for the rest of it.

const ctx = { transport: 'websocket' as const };
const HOST = PROXIED_HOST;

describe('the sandbox on by default, through full turns', () => {
  let scratch: string;
  let host: HostServer;
  let port: number;
  const served = () => host.served();

  beforeAll(async () => {
    scratch = await mkdtemp(join(sandboxVisibleScratch() ?? resolve(import.meta.dirname, '../../../test-results'), 'default-'));
    host = await startHostServer();
    port = host.port;
  });
  afterAll(async () => {
    await host?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  /** One turn running `code` with auto-run on; the cell's text for the model, and the turn's events. */
  async function turn(aut: AppUnderTest, code: string, conversationId?: string) {
    const events: AnyEvent[] = [];
    const off = aut.app.events.subscribe((e) => void events.push(e));
    aut.llm.enqueue(
      { kind: 'tool', calls: [{ id: `call_${Date.now()}`, name: 'execute', arguments: { language: 'python', code } }] },
      { kind: 'text', text: 'Done.' },
    );
    const id = conversationId ?? (await aut.app.handlers['conversation.create']({}, ctx)).id;
    await aut.app.handlers['chat.send']({ conversationId: id, text: 'run it' }, ctx);
    const end = expect.poll(() => events.some((e) => e.name === 'turn.end' && e.payload.conversationId === id), { timeout: 90_000 });
    return {
      id,
      events,
      async result(): Promise<string> {
        await end.toBe(true);
        await aut.app.context.agent.idle(id);
        off();
        const saved = await aut.app.handlers['conversation.get']({ conversationId: id }, ctx);
        const cells = saved.items.filter((i) => i.kind === 'cell');
        const last = cells[cells.length - 1];
        return last?.kind === 'cell' ? (last.resultForModel ?? '') : '';
      },
    };
  }

  const writeOutside = (file: string) => `open(${JSON.stringify(file)}, "w").write("escaped")\nprint("wrote it")`;

  describe('an app with the default settings', () => {
    let aut: AppUnderTest;
    beforeAll(async () => {
      aut = await startAppUnderTest({ autoRun: true, exec: { pythonPath: '/usr/bin/python3' } }, { sandboxDefault: true });
    });
    afterAll(() => aut?.close());

    it('says the sandbox is on, by default, and a cell cannot write outside its workspace', { timeout: 120_000 }, async () => {
      const status = await aut.app.handlers['sandbox.status']({}, ctx);
      expect(status).toMatchObject({ enabled: true, byDefault: true, available: true, reason: null });
      const file = join(scratch, 'from-default-app.txt');
      const result = await (await turn(aut, writeOutside(file))).result();
      expect(result).toMatch(/Read-only file system|Permission denied/);
      expect(existsSync(file)).toBe(false);
    });

    it('asks before code reaches a host, and a refusal holds for the conversation without asking again', { timeout: 180_000 }, async () => {
      const before = served();
      // The person's needsPerson hook, matched to network questions only (docs/agent.md#hooks, issue 28).
      const log = join(scratch, 'needs-network.jsonl');
      const logHook = resolve(import.meta.dirname, '../../fixtures/hooks/log.sh');
      writeFileSync(
        join(aut.dataDir, 'hooks.json'),
        JSON.stringify({ hooks: { needsPerson: [{ command: `/bin/bash '${logHook}' '${log}'`, matcher: 'network' }] } }),
      );
      const fetch = `import urllib.request\ntry:\n    print(urllib.request.urlopen("http://${HOST}:${port}/", timeout=60).read().decode())\nexcept Exception as e:\n    print("FAILED", e)`;
      const first = await turn(aut, fetch);
      await expect.poll(() => first.events.some((e) => e.name === 'network.awaiting-approval'), { timeout: 60_000 }).toBe(true);
      const question = first.events.find((e) => e.name === 'network.awaiting-approval')
        ?.payload as EventPayload<'network.awaiting-approval'>;
      expect(question).toMatchObject({ conversationId: first.id, host: HOST, port });
      await expect.poll(() => logLines(log), { timeout: 60_000 }).toHaveLength(1);
      expect(JSON.parse(readFileSync(log, 'utf8'))).toMatchObject({
        event: 'needsPerson',
        waitingFor: 'network',
        network: { host: HOST, port },
      });
      await aut.app.handlers['network.answer']({ conversationId: first.id, questionId: question.questionId, answer: 'deny' }, ctx);
      expect(await first.result()).toMatch(/FAILED .*403.*the person did not allow 127\.0\.0\.2/);

      const again = await turn(aut, fetch, first.id);
      expect(await again.result()).toMatch(/FAILED .*403.*refused earlier in this conversation/);
      expect(again.events.some((e) => e.name === 'network.awaiting-approval')).toBe(false);
      expect(served()).toBe(before);
    });

    it('"always" lets the host through at once and lists it in the settings', { timeout: 180_000 }, async () => {
      const before = served();
      const fetch = `import urllib.request\nprint(urllib.request.urlopen("http://${HOST}:${port}/", timeout=60).read().decode())`;
      const first = await turn(aut, fetch);
      await expect.poll(() => first.events.some((e) => e.name === 'network.awaiting-approval'), { timeout: 60_000 }).toBe(true);
      const question = first.events.find((e) => e.name === 'network.awaiting-approval')
        ?.payload as EventPayload<'network.awaiting-approval'>;
      await aut.app.handlers['network.answer']({ conversationId: first.id, questionId: question.questionId, answer: 'always' }, ctx);
      expect(await first.result()).toMatch(/hello from the host/);
      expect(served()).toBe(before + 1);
      expect((await aut.app.handlers['settings.get']({}, ctx)).sandbox.allowedHosts).toContain(HOST);
    });
  });

  it('twin: with the sandbox turned off by the person, the same cell writes outside its workspace', { timeout: 120_000 }, async () => {
    const aut = await startAppUnderTest({
      autoRun: true,
      exec: { pythonPath: '/usr/bin/python3' },
      sandbox: { enabled: false, chosen: true },
    });
    try {
      const status = await aut.app.handlers['sandbox.status']({}, ctx);
      expect(status).toMatchObject({ enabled: false, byDefault: false });
      const file = join(scratch, 'from-unsandboxed-app.txt');
      expect(await (await turn(aut, writeOutside(file))).result()).toMatch(/wrote it/);
      expect(existsSync(file)).toBe(true);
    } finally {
      await aut.close();
    }
  });
});
