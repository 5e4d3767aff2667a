import type { Event, WebContents } from 'electron';
import { isAppUrl } from './app-origin';
import { openIfAllowed } from './external-links';

/** What the guards need of a WebContents: unit tests pass a stand-in with the same shape. */
export type GuardedContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/**
 * Every page of the app, in any window or frame holder, stays on app://renderer: navigation elsewhere
 * is cancelled (an http/https/mailto link goes to the OS browser instead), redirects out are cancelled,
 * no <webview> can attach, and no page can open a window (allowed links again go to the OS browser).
 * main.ts applies this to every WebContents as it is created.
 */
export function guardWebContents(contents: GuardedContents, openExternal: (url: string) => unknown): void {
  contents.on('will-navigate', (event: Event, url: string) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    openIfAllowed(url, openExternal);
  });
  contents.on('will-redirect', (event: Event, url: string) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event: Event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openIfAllowed(url, openExternal);
    return { action: 'deny' };
  });
}
