import { runAppProgram, SYSTEM_PATH } from '../../programs/app-programs';

// sudo remembers a password it was given (for 15 minutes by default, per terminal), and a session's
// terminal outlives the run: after the person typed their sudo password for one cell, later cells
// the model writes could run sudo without anyone being asked. So once a run has sent a password to
// sudo, its remembered credentials are removed (`sudo -K`, which needs no password and no terminal):
// the next sudo asks again, and the person sees it.

export async function forgetSudoPassword(env: Record<string, string>): Promise<void> {
  // The session's environment (sudo keys its memory by user and terminal), PATH aside: sudo itself
  // comes from the system's folders, never from a PATH the session's code could have put a `sudo` on.
  await runAppProgram('sudo', ['-K'], { env: { ...env, PATH: SYSTEM_PATH } });
}
