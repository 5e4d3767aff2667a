import { bridgeConnected } from './bridge/bridge';
import { readStoredPanelSizes } from './features/layout/stored-panel-sizes';
import { requestInitialData } from './state/initial-data';
import './styles/base.css';
import './styles/layout.css';
import './styles/chat.css';
import './styles/cells.css';
import './styles/files.css';
import './styles/screens.css';
import './styles/highlight.css';

// The page's first script, small on purpose: it opens the connection and asks for the window's state
// (initial-data.ts), then loads the app's chunk — React and the views, most of the bytes — which the
// page has been fetching alongside since index.html named it (a modulepreload, electron.vite.config.ts).
// The handshake and the first answers no longer wait for that chunk to be fetched and evaluated.
// index.html loads this script `async`: a deferred module script waits for the stylesheets before it
// runs, and the connection need not. So the document may still be parsing when it runs.

// Views that validate with the contract's schemas (Settings, the schedule card) load zod, whose object
// schemas probe for eval with `new Function` when they are built; the page's CSP refuses it and reports
// a violation on every start. Without its JIT zod never probes (and parses the same). zod keeps its
// configuration on globalThis (shared by every copy of it) and takes an object already there, so the
// page sets it without importing zod — here, in the page's first script, before the app's chunk is
// evaluated: set in that chunk, a module it imports that builds a schema (the schedule card's) ran
// first (ui-lazy-chunks.e2e.test.ts and markdown-overlay.e2e.test.ts fail on a CSP violation if this
// stops working).
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(zodGlobal.__zod_globalConfig ??= {}).jitless = true;

const answered = requestInitialData();
// While the socket opens (panel-sizes.ts takes them).
readStoredPanelSizes();
// The chunk is evaluated once the first requests are out (or the connection failed, which the store
// reports): its evaluation is one long task, and the socket's open event would wait behind it.
void Promise.race([bridgeConnected, answered])
  .then(documentParsed)
  .then(async () => {
    const root = document.getElementById('root');
    if (!root) throw new Error('index.html lacks #root');
    try {
      const { mount } = await import('./mount');
      mount(root);
    } catch (err) {
      root.textContent = 'The app could not load. Reload the page to try again.';
      throw err;
    }
  });

function documentParsed(): Promise<void> {
  if (document.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
}
