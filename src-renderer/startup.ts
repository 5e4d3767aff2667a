import { loadTerminalView } from './features/cells/CellOutputs';
import { loadHighlighter } from './features/highlight/HighlightedCode';
import { preloadMarkdown } from './features/markdown/Markdown';
import { bridge, forgetLaunchToken } from './bridge/bridge';
import { useApp } from './state/app-store';
import { wireEvents } from './state/event-wiring';
import { wireNotifications } from './state/notifications';

// The app chunk's start, before React draws anything: events are wired and the store takes the state
// the page's first script asked for (main.tsx, initial-data.ts) while React renders the shell. The page
// is marked ready (body[data-ready], which tests and automation wait for) once the state has loaded and
// the App has mounted its effects (keyboard shortcuts) — in whichever order they finish.

let mounted: () => void = () => undefined;
const appMounted = new Promise<void>((resolve) => (mounted = resolve));

/** Called by App's first effect. */
export function markMounted(): void {
  mounted();
}

/** Wires the events and takes the first state; settles once the store has it (or has its error). */
export function startApp(): Promise<void> {
  // Lives as long as the page: no unsubscribe.
  wireEvents();
  wireNotifications();
  const loaded = useApp.getState().init();
  void Promise.all([loaded, appMounted]).then(() => {
    document.body.dataset.ready = 'true';
    // The rest in a task of its own: the window is usable (and painted) first.
    setTimeout(afterUsable, 0);
  });
  return loaded;
}

function afterUsable(): void {
  forgetLaunchToken();
  // Now, not before: the app's warm-up (runtime detection, a thread) would compete with the page.
  void bridge['app.ready']({}).catch(() => undefined);
  preloadConversationViews();
}

/** Once the window is usable, fetch what a conversation shows next (answers, code, live output) while idle. */
function preloadConversationViews(): void {
  const load = () => {
    preloadMarkdown();
    void loadHighlighter().catch(() => undefined);
    void loadTerminalView().catch(() => undefined);
  };
  if ('requestIdleCallback' in window) requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 200);
}
