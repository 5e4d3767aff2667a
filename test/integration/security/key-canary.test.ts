import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { Conversation } from '@contract';
import { openSecretStore } from '../../../src-main/core/secrets/open-secret-store';
import type { KeyringBackend } from '../../../src-main/core/secrets/napi-keyring';
import { frameText } from '../../../src-main/server/frame-text';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';
import { emptyKeyring, keyringAvailability, testKeyring } from '../../support/keyring-for-tests';

// A unique fake key goes into the real keychain; after a full scripted turn (a failing run included)
// it must appear nowhere the app writes or sends: files (a notebook export included), logs, frames to
// the renderer, the model's requests (which carry the code's output), the code's environment.

const availability = keyringAvailability();

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) out.push(...filesUnder(full));
    else if (st.isFile()) out.push(full);
  }
  return out;
}

describe.skipIf(availability.mode === 'skip')('a provider key in the keychain never leaks', () => {
  const canary = `sk-canary-${randomUUID()}`;
  let keyring: KeyringBackend;
  let aut: AppUnderTest;
  const frames: string[] = [];
  const logged: string[] = [];
  let socket: WebSocket;

  beforeAll(async () => {
    if (availability.mode === 'missing') throw new Error(availability.message);
    keyring = testKeyring();
    const opened = await openSecretStore({ keyring });
    expect(opened.notice).toBeNull();
    await opened.store.set('provider:openai', canary);
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
    }
    // The key is also in the app's own environment under an unusual name: the code's environment
    // must still not carry it (values are stripped, not only well-known names).
    process.env.OI_TEST_CANARY_HOLDER = canary;
    aut = await startAppUnderTest({ autoRun: true, maxFailedAttempts: 5 }, { secrets: opened.store });
    socket = new WebSocket(`${aut.server.url.replace('http', 'ws')}/ws?token=${aut.server.token}`);
    await new Promise((resolve) => socket.once('open', resolve));
    socket.on('message', (data) => frames.push(frameText(data)));
  });
  afterAll(async () => {
    socket?.close();
    delete process.env.OI_TEST_CANARY_HOLDER;
    vi.restoreAllMocks();
    await aut?.close();
    if (keyring) await emptyKeyring(keyring);
  });

  it("runs a turn with the key, and the key is nowhere in files, logs, frames or the code's environment", async () => {
    aut.llm.enqueue(
      {
        kind: 'tool',
        calls: [{ name: 'execute', arguments: { language: 'shell', code: 'env | sort; echo "openai=$OPENAI_API_KEY"; exit 3' } }],
      },
      {
        kind: 'tool',
        calls: [{ name: 'execute', arguments: { language: 'shell', code: 'cat /proc/self/environ | tr "\\0" "\\n" | wc -l' } }],
      },
      { kind: 'text', text: 'Finished.' },
    );
    const send = (id: number, name: string, input: unknown) => socket.send(JSON.stringify({ type: 'request', id, name, input }));
    send(1, 'conversation.create', {});
    const conv = await new Promise<Conversation>((resolve) => {
      const onMsg = (d: WebSocket.RawData) => {
        const f = JSON.parse(frameText(d)) as { type: string; id?: number; result?: Conversation };
        if (f.type === 'response' && f.id === 1 && f.result) {
          socket.off('message', onMsg);
          resolve(f.result);
        }
      };
      socket.on('message', onMsg);
    });
    send(2, 'chat.send', { conversationId: conv.id, text: 'Show me the environment' });
    await expect.poll(() => frames.some((f) => f.includes('"turn.end"')), { timeout: 30_000 }).toBe(true);
    await aut.app.context.agent.idle(conv.id);

    // The key was really used: it reached the (scripted) provider, and nowhere else.
    expect(JSON.stringify(aut.llm.requests[0]?.headers)).toContain(canary);
    const saved = await aut.app.context.conversations.get(conv.id);
    const firstCell = saved.items.find((i) => i.kind === 'cell');
    expect(firstCell?.kind === 'cell' && firstCell.status).toBe('failed');
    expect(JSON.stringify(saved)).toContain('PATH=');

    // A notebook export of the conversation, written where the user would keep it.
    const exported = await aut.app.handlers['notebook.export']({ conversationId: conv.id }, { transport: 'websocket' });
    expect(exported.text).toContain('nbformat');
    writeFileSync(path.join(conv.workspace, exported.fileName), exported.text);

    const leaks: string[] = [];
    for (const file of [...filesUnder(aut.dataDir), ...filesUnder(conv.workspace)]) {
      if (readFileSync(file).includes(canary)) leaks.push(`file ${file}`);
    }
    for (const f of frames) if (f.includes(canary)) leaks.push(`frame ${f.slice(0, 200)}`);
    for (const line of logged) if (line.includes(canary)) leaks.push(`log ${line.slice(0, 200)}`);
    // Everything the model was sent (bodies): the code's env output went there too.
    for (const r of aut.llm.requests) if (JSON.stringify(r.body).includes(canary)) leaks.push(`request body to the model`);
    expect(leaks).toEqual([]);
  });
});
