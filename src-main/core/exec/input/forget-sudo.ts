import { execFile } from 'node:child_process';

// sudo remembers a password it was given (for 15 minutes by default, per terminal), and a session's
// terminal outlives the run: after the person typed their sudo password for one cell, later cells
// the model writes could run sudo without anyone being asked. So once a run has sent a password to
// sudo, its remembered credentials are removed (`sudo -K`, which needs no password and no terminal):
// the next sudo asks again, and the person sees it.

export function forgetSudoPassword(env: Record<string, string>): Promise<void> {
  return new Promise((resolve) => {
    execFile('sudo', ['-K'], { env, timeout: 10_000 }, () => resolve());
  });
}
