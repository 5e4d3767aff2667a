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

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
requestInitialData();
import('./mount').then(
  ({ mount }) => mount(root),
  (err: unknown) => {
    root.textContent = 'The app could not load. Reload the page to try again.';
    throw err;
  },
);
