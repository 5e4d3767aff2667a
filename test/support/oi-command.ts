import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtIsFresh, REPO } from './built-output';

// Node's arguments that start `oi`, apart from cli-process.ts's terminal helpers: app-under-test.ts
// needs them (the Schedules screen's tasks run `oi`), and the benches load it under plain tsx, where
// @xterm/headless (CommonJS) gives no named exports.

const MAIN = path.join(REPO, 'src-main', 'cli', 'main.ts');
// By file URL, so oi can start in any folder (where its code runs) and still find tsx.
const TSX = pathToFileURL(path.join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
/** What `npm run build` makes of the CLI, and the launcher users run it by (package.json's bin). */
const BUILT = path.join(REPO, 'out', 'main', 'cli.js');
const BIN = path.join(REPO, 'bin', 'oi.mjs');
/**
 * Node's arguments that run `oi`, for tests that spawn it their own way: built when fresh
 * (built-output.ts), else from source through tsx. An `oi` from source has tsx compile and load the
 * CLI's modules: a one-shot turn took 1.8 CPU-seconds that way against 0.35 s built, and the CLI
 * tests start dozens of them.
 */
export const OI = builtIsFresh(BUILT) ? [BIN] : ['--import', TSX, MAIN];
