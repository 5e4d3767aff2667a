import { proxyEnvironment } from './network-relay';
import { exposedSealed, type SandboxPlan } from './sandbox-plan';
import { isInside } from './writable-zones';

// The plan as a bubblewrap command line. Mount operations apply in order, so the hidden folders are
// replaced by empty ones first and the workspace, private folder, runtime and extra paths are
// bound back on top of them: a workspace inside the home stays visible while the rest of the home
// does not.
//
// --new-session only for one-off programs (plan.newSession): a session would lose its terminal, and
// with it Ctrl-C and the shell's job control, while what the flag guards against (TIOCSTI, typing
// into the controlling terminal) types into a pty only the sandboxed session itself reads. A one-off
// program started by the app would otherwise hold the app's own terminal.
//
// Not used, on purpose:
// - --unshare-user as an explicit flag: bubblewrap uses a user namespace by itself when it needs
//   one (it is not setuid on Debian), and refuses to run if the kernel forbids it.

export function bubblewrapArgs(plan: SandboxPlan, command: { file: string; args: string[] }, readable: string[]): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  for (const folder of [...plan.privateTemp, ...plan.hidden]) args.push('--tmpfs', folder);
  for (const path of readable) args.push('--ro-bind', path, path);
  for (const path of plan.systemFiles) args.push('--ro-bind-try', path, path);
  for (const extra of plan.extra) args.push(extra.writable ? '--bind-try' : '--ro-bind-try', extra.path, extra.path);
  args.push(plan.workspaceReadOnly ? '--ro-bind' : '--bind', plan.workspace, plan.workspace);
  const sealed = exposedSealed(plan);
  for (const folder of sealed) seal(args, plan, folder, readable);
  // After the seals: a private folder under a sealed one stays the session's own.
  args.push('--bind', plan.privateDir, plan.privateDir);
  // Empty and read-only: writing there must fail, not vanish with the sandbox. Last, because the
  // binds above need to create their mount points inside these folders first.
  for (const folder of [...plan.hidden, ...sealed]) args.push('--remount-ro', folder);
  if (!plan.network) args.push('--unshare-net');
  if (!plan.network && plan.proxyPort !== null) {
    for (const [name, value] of Object.entries(proxyEnvironment(plan.proxyPort, plan.proxyBypass))) args.push('--setenv', name, value);
  }
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-cgroup-try');
  args.push('--die-with-parent', '--cap-drop', 'ALL');
  if (plan.newSession) args.push('--new-session');
  args.push('--chdir', plan.workspace);
  // The user's TMPDIR may point into a hidden folder; /tmp is the session's own.
  args.push('--setenv', 'TMPDIR', '/tmp');
  // Tools that keep caches and settings in the (now empty, read-only) home would warn on every
  // start (pip, matplotlib); give them a place in the private /tmp.
  if (plan.hidden.length > 0) args.push('--setenv', 'XDG_CACHE_HOME', '/tmp/.cache', '--setenv', 'XDG_CONFIG_HOME', '/tmp/.config');
  args.push('--', command.file, ...command.args);
  return args;
}

/**
 * A sealed folder (the app's data folder) that a writable bind exposes, replaced by an empty one
 * (made read-only at the end) after that bind: what the app follows from it cannot be written.
 * What must stay visible inside it is bound back read-only (the skills folder, a runtime), and a
 * workspace inside it (a conversation's own folder, reached through a writable bind above it)
 * read-write, as it would be anyway.
 */
function seal(args: string[], plan: SandboxPlan, folder: string, readable: string[]): void {
  // The workspace is the sealed folder itself (oi started in the data folder): shown, read-only.
  if (folder === plan.workspace) return void args.push('--ro-bind', folder, folder);
  args.push('--tmpfs', folder);
  const inside = (path: string): boolean => isInside(path, folder) && path !== folder;
  for (const path of [...readable, ...plan.extra.map((e) => e.path)].filter(inside)) args.push('--ro-bind-try', path, path);
  if (inside(plan.workspace)) args.push(plan.workspaceReadOnly ? '--ro-bind' : '--bind', plan.workspace, plan.workspace);
}
