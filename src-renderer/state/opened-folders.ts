/**
 * `expanded` with every folder holding one of `paths` opened, so what a run wrote is seen highlighted.
 * Used both while a run's watcher batches arrive and when the run ends with its checkpoint's list:
 * a quick cell can end before the watcher's first batch, and then only the list names its files.
 */
export function withFoldersOf(expanded: ReadonlySet<string>, paths: readonly string[]): Set<string> {
  const opened = new Set(expanded);
  for (const p of paths) for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) opened.add(p.slice(0, i));
  return opened;
}
