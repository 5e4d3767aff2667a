import { useEffect, useRef } from 'react';
import { usePanels } from '../layout/panel-sizes';
import { RightPanel } from './RightPanel';

/**
 * The files panel on a narrow window: over the chat, below the top bar (whose toggle stays in reach),
 * closed by the toggle, Esc, or a click outside it.
 */
export function FilesDrawer() {
  const close = usePanels((s) => s.closeDrawer);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Captured before the window's own Esc (stop the agent): Esc closes what is on top first.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (e.target instanceof Element && e.target.closest('[role="dialog"], [role="menu"], .inline-edit')) return;
      e.preventDefault();
      close();
    };
    const onDown = (e: MouseEvent) => {
      const target = e.target as Element | null;
      // The top bar's toggle handles itself; dialogs opened from the panel are not "outside".
      if (!target || box.current?.contains(target) || target.closest('.topbar, [role="dialog"], [role="menu"]')) return;
      close();
    };
    window.addEventListener('keydown', onKey, true);
    document.addEventListener('mousedown', onDown);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      document.removeEventListener('mousedown', onDown);
    };
  }, [close]);
  return (
    <div className="files-drawer" ref={box}>
      <RightPanel />
    </div>
  );
}
