import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

// The suite's PATH, set once for every test process (vitest.config.ts): the contributor's PATH with
// pyenv's shim folder replaced by the folders of the versions pyenv chose (asked once, here). A shim is
// a shell script that asks pyenv which interpreter to run: about 0.6 CPU-seconds a call, and every
// `oi` and app a test starts asks `python3` for its version (one-shot.test.ts, every process of its run:
// 36.9 CPU-seconds with the shims first on PATH, 33.6 with them resolved, at a load of ~20). The interpreters the tests get are the same ones; only
// the per-call question is gone. The app's handling of a shim is held by its own test
// (test/integration/exec/version-manager-shim.test.ts), with a shim written for it.
const PYENV_SHIMS = /[/\\]\.pyenv[/\\]shims[/\\]?$/;
// pyenv-virtualenv's shims are `activate`/`deactivate` only: nothing a test runs.
const VIRTUALENV_SHIMS = /[/\\]\.pyenv[/\\]plugins[/\\]pyenv-virtualenv[/\\]shims[/\\]?$/;

/** `value` (a PATH) with pyenv's shims replaced by the version folders they lead to. */
export function withShimsResolved(value: string): string {
  return value
    .split(path.delimiter)
    .filter((entry) => !VIRTUALENV_SHIMS.test(entry))
    .flatMap((entry) => (PYENV_SHIMS.test(entry) ? pyenvVersionFolders(path.dirname(entry)) : [entry]))
    .join(path.delimiter);
}

/** The bin folders of the versions pyenv chooses now ("system": none, PATH's later folders answer). */
function pyenvVersionFolders(root: string): string[] {
  let names: string;
  try {
    names = execFileSync(path.join(root, 'bin', 'pyenv'), ['version-name'], {
      env: { ...process.env, PYENV_ROOT: root },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // pyenv cannot say: keep its shims rather than change which Python the tests get.
    return [path.join(root, 'shims')];
  }
  return names
    .split(':')
    .filter((name) => name !== 'system')
    .map((name) => path.join(root, 'versions', name, 'bin'))
    .filter((folder) => existsSync(folder));
}
