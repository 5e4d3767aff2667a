import { createDispatcher, type Dispatcher } from '../core/bridge/dispatch';
import type { EventBus } from '../core/bridge/event-bus';
import { currentOiCommand } from '../core/schedules/oi-command';
import { startScheduleService } from '../core/schedules/schedule-service';
import { openWindowedSecrets, startApp } from '../core/start-app';
import { workspaceLookup, type WorkspaceLookup } from './workspace-lookup';

/** What browser mode's server needs of the app. */
export interface BrowserApp {
  dispatch: Dispatcher;
  events: EventBus;
  workspaceOf: WorkspaceLookup;
  dispose(): Promise<void>;
}

export interface BrowserAppOptions {
  dataDir: string;
}

/**
 * The app behind browser mode: settings, the keychain, every service. main.ts loads this module only
 * once the server listens and its URL is printed; what is said about settings or the keychain follows
 * the URL.
 */
export async function openBrowserApp(opts: BrowserAppOptions): Promise<BrowserApp> {
  const { app, notices } = await startApp({
    dataDir: opts.dataDir,
    openSecrets: openWindowedSecrets,
    app: { mcpApprovalEndpoint: true },
  });
  for (const notice of notices) console.warn(notice);
  // Scheduled tasks no OS scheduler runs, folder triggers and the webhook, while browser mode is open (docs/schedules.md).
  const schedules = await startScheduleService({
    dataDir: opts.dataDir,
    command: currentOiCommand(process.env),
    events: app.events,
    log: (line) => console.warn(`scheduled tasks: ${line}`),
  });
  return {
    dispatch: createDispatcher(app.handlers),
    events: app.events,
    workspaceOf: workspaceLookup(app.context.agent),
    dispose: async () => {
      await schedules.close();
      await app.dispose();
    },
  };
}
