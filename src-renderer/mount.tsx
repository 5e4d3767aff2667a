import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startApp } from './startup';

/**
 * Drawing without the state costs a render and a layout that the state's arrival throws away, on the
 * way to a usable window: the first answers are usually in by the time this chunk has run (main.tsx
 * sends them first), so the App waits for them — but not long: a slow answer gets the shell drawn
 * meanwhile.
 */
const SHELL_AFTER_MS = 150;

/** The app's chunk (main.tsx imports it once the first requests are out): React renders the window. */
export function mount(root: HTMLElement): void {
  const loaded = startApp();
  let drawn = false;
  const draw = () => {
    if (drawn) return;
    drawn = true;
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  };
  const timer = setTimeout(draw, SHELL_AFTER_MS);
  void loaded.finally(() => {
    clearTimeout(timer);
    draw();
  });
}
