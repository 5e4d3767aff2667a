import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * React.lazy for a named export: the component's module becomes a chunk of its own, fetched the first
 * time the component renders (views the window does not need to start: Settings, notebook previews,
 * the terminal emulator…). Chunks are files next to the entry, so the page's CSP (script-src 'self')
 * allows them in browser mode and under app://.
 */
export function lazyNamed<P extends object, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => load().then((m) => ({ default: m[name] })));
}
