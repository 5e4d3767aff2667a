// The panel sizes as stored (localStorage, panel-sizes.ts). A page's first use of localStorage is a
// synchronous round trip to the browser process; the page's first script makes it (main.tsx) while
// the connection opens and the main thread waits anyway, rather than the app's chunk while it builds
// the window. Nothing imported: this module is in the first script's chunk.

export const PANEL_SIZES_KEY = 'oi.panel-sizes';

let early: string | null | undefined;

/** Reads the stored sizes now and keeps them for takeStoredPanelSizes. */
export function readStoredPanelSizes(): void {
  try {
    early = localStorage.getItem(PANEL_SIZES_KEY);
  } catch {
    early = null;
  }
}

/** The sizes read early (once), else read now. */
export function takeStoredPanelSizes(): string | null {
  if (early === undefined) readStoredPanelSizes();
  const raw = early ?? null;
  early = undefined;
  return raw;
}
