import type { App } from '../core/app';
import { localRequests } from '../core/bridge/local-requests';

/**
 * Said once at start when code will run without asking (-y, or auto-run saved in the app's settings)
 * and no sandbox is on: the same sentence the desktop app's confirmation shows.
 */
export async function warnUnsandboxedAutoRun(app: App, warn: (line: string) => void): Promise<void> {
  const status = await localRequests(app.handlers)('sandbox.status', {});
  if (status.enabled) return;
  warn(`oi: auto-run is on: the model's code runs without asking. ${status.autoRunWarning}`);
}
