import { useSyncExternalStore } from 'react';

/**
 * Below this width the files panel does not take a column: it waits behind the top bar's toggle and
 * opens over the chat, so the chat column and the top bar keep their room (issue 11: at 1,000 px the
 * panel covered the top bar's controls).
 */
export const NARROW_BELOW_PX = 1100;

const query = `(max-width: ${NARROW_BELOW_PX - 0.02}px)`;

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(query);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}
