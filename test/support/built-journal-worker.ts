import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import { builtIsFresh, REPO } from './built-output';

// A vitest plugin (vitest.config.ts): the change journal's thread (src-main/core/checkpoints/
// change-journal.ts) runs from the build when it is fresh. From source, each thread has tsx compile
// and load its code: 0.3 CPU-seconds against 0.07 built, in every app a test starts, and 4-17 s of a
// first cell's time under two busy loops. The app finds the built worker beside its bundle; in a test
// its module is the source file, so the plugin points that lookup at out/main/ instead.

const MODULE = path.join(REPO, 'src-main', 'core', 'checkpoints', 'change-journal.ts');
const BUILT = path.join(REPO, 'out', 'main', 'checkpoint-journal.js');
/** The lookup in change-journal.ts's workerEntry(). */
const LOOKUP = "new URL('./checkpoint-journal.js', import.meta.url)";

export function builtJournalWorker(): Plugin {
  return {
    name: 'oi-built-journal-worker',
    enforce: 'pre',
    transform(code, id) {
      if (id !== MODULE || !builtIsFresh(BUILT)) return null;
      // Loud, so a rename in change-journal.ts cannot silently send every test back to tsx.
      if (!code.includes(LOOKUP)) throw new Error(`${MODULE} no longer has ${LOOKUP}: update test/support/built-journal-worker.ts`);
      return code.replace(LOOKUP, `new URL(${JSON.stringify(pathToFileURL(BUILT).href)})`);
    },
  };
}
