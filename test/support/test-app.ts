import path from 'node:path';
import { createApp, type App, type AppOptions } from '../../src-main/core/app';
import { OI } from './oi-command';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
export const RESOURCES_DIR = path.join(REPO_ROOT, 'resources');

/** What a test must choose itself; every other option of createApp has a test default here. */
export type TestAppOptions = Pick<AppOptions, 'dataDir' | 'settings' | 'secrets'> & Partial<AppOptions>;

/**
 * The composition root (createApp) as every test builds it: the repository's resources, version
 * "test", no keys from this process's environment, and scheduled tasks kept in the app (never this
 * machine's systemd or launchd). The entry points start it through core/start-app.ts.
 */
export function createTestApp(opts: TestAppOptions): App {
  return createApp({
    resourcesDir: RESOURCES_DIR,
    version: 'test',
    env: {},
    schedules: { command: { program: process.execPath, args: OI, env: {} }, env: { OI_SCHEDULER: 'in-app' } },
    ...opts,
  });
}
