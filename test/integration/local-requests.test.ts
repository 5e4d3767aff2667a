import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src-main/core/app';
import { createTestApp } from '../support/test-app';
import { localRequests } from '../../src-main/core/bridge/local-requests';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';

// `oi` reaches core through the dispatcher, as the `cli` transport: the contract's input check runs
// before any handler, and a handler's failure comes back in its own words.

describe('localRequests (the CLI’s way into core)', () => {
  let dir = '';
  let app: App;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'oi-local-requests-'));
    app = createTestApp({
      dataDir: dir,
      settings: new MemorySettingsStore({}),
      secrets: new MemorySecretStore(),
    });
  });
  afterEach(async () => {
    await app.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses input the contract refuses before the handler runs, and answers as the cli transport', async () => {
    const request = localRequests(app.handlers);
    await expect(request('conversation.get', { conversationId: 5 as unknown as string })).rejects.toThrow(
      /conversation\.get: .*conversationId/,
    );
    await expect(request('app.info', {})).resolves.toMatchObject({ transport: 'cli', version: 'test' });
    const created = await request('conversation.create', {});
    await expect(request('conversation.get', { conversationId: created.id })).resolves.toMatchObject({ id: created.id });
  });

  it('throws a handler failure with the handler’s own message, not the page’s "<request>: " prefix', async () => {
    const request = localRequests(app.handlers);
    const direct = await app.context.agent.snapshot('no-such-conversation').then(
      () => '',
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    expect(direct).not.toBe('');
    await expect(request('conversation.get', { conversationId: 'no-such-conversation' })).rejects.toThrow(
      new RegExp(`^${direct.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    );
  });
});
