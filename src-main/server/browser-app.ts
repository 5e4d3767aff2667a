import { createApp } from '../core/app';
import { createDispatcher, type Dispatcher } from '../core/bridge/dispatch';
import type { EventBus } from '../core/bridge/event-bus';
import { openSecretStore } from '../core/secrets/open-secret-store';
import { openNodeSettingsStore } from '../core/settings/node-settings-store';
import { workspaceLookup, type WorkspaceLookup } from '../core/workspace/workspace-lookup';

/** What browser mode's server needs of the app. */
export interface BrowserApp {
  dispatch: Dispatcher;
  events: EventBus;
  workspaceOf: WorkspaceLookup;
  dispose(): Promise<void>;
}

export interface BrowserAppOptions {
  dataDir: string;
  resourcesDir: string;
  version: string;
}

/**
 * The app behind browser mode: settings, the keychain, every service. main.ts loads this module only
 * once the server listens and its URL is printed; what is said about settings or the keychain follows
 * the URL.
 */
export async function openBrowserApp(opts: BrowserAppOptions): Promise<BrowserApp> {
  const settings = openNodeSettingsStore({ dir: opts.dataDir });
  if (settings.notice) console.warn(settings.notice);
  const secrets = await openSecretStore();
  if (secrets.reason) console.warn(`No OS keychain: ${secrets.reason}`);
  const app = createApp({
    dataDir: opts.dataDir,
    settings,
    secrets: secrets.store,
    notices: secrets.notice ? [secrets.notice] : [],
    resourcesDir: opts.resourcesDir,
    version: opts.version,
    mcpApprovalEndpoint: true,
  });
  return {
    dispatch: createDispatcher(app.handlers),
    events: app.events,
    workspaceOf: workspaceLookup(app.context.agent),
    dispose: () => app.dispose(),
  };
}
