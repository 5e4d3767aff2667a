import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { App } from '../../src-main/core/app';
import { createDispatcher, type Dispatcher } from '../../src-main/core/bridge/dispatch';
import type { RequestContext } from '../../src-main/core/bridge/handler-table';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import type { SecretStore } from '../../src-main/core/secrets/secret-store';
import { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';
import type { SettingsStore } from '../../src-main/core/settings/settings-store';
import { createTestApp } from './test-app';
import { useTempDirs } from './temp-dirs';

/** The app of a requests test, reached as browser mode reaches it: its dispatcher, the contract's checks first. */
export interface RequestApp {
  readonly app: App;
  readonly dataDir: string;
  /** A request as the browser's socket makes it (or as `ctx` says): the answer, ok or not. */
  dispatch(name: string, input: unknown, ctx?: RequestContext): ReturnType<Dispatcher>;
  /** A request that must succeed: its result, or the error's message thrown. */
  call(name: string, input: unknown): Promise<unknown>;
}

export interface RequestAppOptions {
  /** One app for the file's tests (default: a fresh one, in a fresh data folder, for each test). */
  once?: boolean;
  /** The stores the app starts with (default: empty ones in memory). */
  stores?: () => Promise<{ settings?: SettingsStore; secrets?: SecretStore }>;
}

/** Starts the app before each test (or once) in a data folder of its own; disposes of both after. */
export function useRequestApp(prefix: string, options: RequestAppOptions = {}): RequestApp {
  const temp = useTempDirs(prefix, options.once ? 'all' : 'each');
  let started: { app: App; dataDir: string; dispatch: Dispatcher } | null = null;
  const [before, after] = options.once ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    const dataDir = temp();
    const { settings = new MemorySettingsStore(), secrets = new MemorySecretStore() } = (await options.stores?.()) ?? {};
    const app = createTestApp({ dataDir, settings, secrets });
    started = { app, dataDir, dispatch: createDispatcher(app.handlers) };
  });
  after(async () => {
    await started?.app.dispose();
    started = null;
  });
  const now = () => {
    if (!started) throw new Error('useRequestApp: the app has not started');
    return started;
  };
  return {
    get app() {
      return now().app;
    },
    get dataDir() {
      return now().dataDir;
    },
    dispatch: (name, input, ctx = { transport: 'websocket' }) => now().dispatch(name, input, ctx),
    async call(name, input) {
      const answer = await now().dispatch(name, input, { transport: 'websocket' });
      if (!answer.ok) throw new Error(answer.error.message);
      return answer.result;
    },
  };
}
