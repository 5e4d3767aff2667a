import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startApp } from './startup';
import './styles/base.css';
import './styles/layout.css';
import './styles/chat.css';
import './styles/cells.css';
import './styles/files.css';
import './styles/screens.css';
import './styles/highlight.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
startApp();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
