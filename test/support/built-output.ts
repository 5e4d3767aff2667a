import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// What `npm run build` made (out/), and whether tests may run it instead of the source: spawned code
// from source pays tsx's compile and load in every process (the CLI tests start dozens of `oi`, the
// app starts a change-journal thread), where `npm test` has just built it all.

export const REPO = path.resolve(import.meta.dirname, '../..');
/** What the build reads: a source file changed after the build makes its output stale. */
const BUILT_FROM = ['src-main', 'src-preload', 'package.json', 'electron.vite.config.ts'];

/** The newest modification time under `entry` (a file or a folder). */
function newestMtime(entry: string): number {
  const stat = statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/**
 * Whether `file` (under out/) is newer than every source the build reads, as in `npm test`, which
 * builds first. After an edit (or without a build) tests run the source, so they never test stale
 * code; `OI_TEST_CLI=source` forces the source.
 */
export function builtIsFresh(file: string): boolean {
  if (process.env.OI_TEST_CLI === 'source') return false;
  const built = statSync(file, { throwIfNoEntry: false });
  return built !== undefined && BUILT_FROM.every((entry) => newestMtime(path.join(REPO, entry)) < built.mtimeMs);
}
