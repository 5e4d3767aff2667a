import path from 'node:path';

// The suite's PATH, set once for every test process (vitest.config.ts): the contributor's PATH without
// version managers' shim folders (pyenv, asdf, rbenv, nodenv, mise). A shim is a shell script that asks
// its manager which interpreter to run: about 0.6 CPU-seconds a call with pyenv, and every `oi` and app
// a test starts asks Python for its version through whatever `python3` PATH gives first (one-shot.test.ts:
// 36.9 CPU-seconds with pyenv's shims first on PATH, 29.6 without). The tests need the interpreters
// `.ci/run` installs (Debian's /usr/bin/python3 with matplotlib, ipykernel…), not the contributor's
// choice of version. The app's handling of a shim is held by its own test
// (test/integration/exec/version-manager-shim.test.ts), with a shim written for it.
const SHIM_FOLDER = /[/\\](\.pyenv|\.asdf|\.rbenv|\.nodenv|\.local[/\\]share[/\\]mise|\.mise)([/\\]plugins[/\\][^/\\]+)?[/\\]shims[/\\]?$/;

/** `value` (a PATH) without version managers' shim folders. */
export function withoutShimFolders(value: string): string {
  return value
    .split(path.delimiter)
    .filter((entry) => !SHIM_FOLDER.test(entry))
    .join(path.delimiter);
}
