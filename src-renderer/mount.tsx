import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startApp } from './startup';

/** The app's chunk (main.tsx imports it once the first requests are out): React renders the window. */
export function mount(root: HTMLElement): void {
  startApp();
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
