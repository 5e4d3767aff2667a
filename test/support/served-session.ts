import fs from 'node:fs';
import type { App } from '../../src-main/core/app';
import { ServeSession } from '../../src-main/core/mcp-server/serve-session';
import type { MemorySettingsStore } from '../../src-main/core/settings/memory-settings-store';
import type { CoreApps } from './core-apps';

// One MCP client's side of `oi mcp` (core/mcp-server/serve-session.ts) on a real app, wired from the
// app's context the way cli/mcp-command.ts wires it (the person's hooks included), without the process.

export interface Served {
  app: App;
  /** The folder the client's code runs in (real path, removed after the test). */
  workspace: string;
  /** A new client's session on that app and folder. */
  session(): ServeSession;
}

export function served(core: CoreApps, settings: MemorySettingsStore): Served {
  const app = core.app(settings);
  const workspace = fs.realpathSync(core.tempDir());
  const { context } = app;
  const session = (): ServeSession =>
    new ServeSession({
      exec: context.exec,
      conversations: context.conversations,
      events: context.events,
      settings: () => settings.get(),
      workspace,
      version: 'test',
      hooks: { hooks: context.hooks, events: context.events },
    });
  return { app, workspace, session };
}
