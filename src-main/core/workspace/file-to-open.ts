import path from 'node:path';
import { openWorkspaceEntry, WorkspaceFileError } from './open-workspace-file';
import { resolveInWorkspace } from './resolve-in-workspace';

// "Open with…" (the desktop app) hands a workspace file to another program, the OS default app or
// the one the person picks, which runs as the person outside the sandbox. Sandboxed code writes the
// workspace, so what it wrote must not become something the OS runs: a program or script, an installer,
// a launcher (.desktop, .lnk, .url) — whatever some OS runs, or asks to run, when it opens the file. A
// file with an execute bit is refused for the same reason (a file manager may run it). Refused files
// can still be revealed in the file manager, where opening them is the person's own act.

const RUN_WHEN_OPENED = new Set(
  [
    // Programs, scripts and launchers Windows runs on open.
    ...['exe', 'com', 'bat', 'cmd', 'scr', 'pif', 'cpl', 'msc', 'msi', 'msp', 'msix', 'appx', 'appref-ms', 'application'],
    ...[
      'ps1',
      'psm1',
      'vbs',
      'vbe',
      'js',
      'jse',
      'wsf',
      'wsh',
      'hta',
      'lnk',
      'url',
      'reg',
      'inf',
      'scf',
      'library-ms',
      'settingcontent-ms',
    ],
    // Interpreters an OS associates with running the file (Windows' py launcher, macOS' Terminal).
    ...['py', 'pyw', 'pyz', 'rb', 'pl', 'sh', 'bash', 'zsh', 'csh', 'ksh', 'fish', 'command', 'tool', 'jar', 'jnlp'],
    // macOS and Linux launchers, packages and disk images.
    ...[
      'app',
      'pkg',
      'mpkg',
      'dmg',
      'terminal',
      'workflow',
      'scpt',
      'applescript',
      'desktop',
      'appimage',
      'run',
      'deb',
      'rpm',
      'flatpakref',
      'snap',
    ],
  ].map((ext) => `.${ext}`),
);

/** Why "Open with…" refused a file: it names the file and what to do instead. */
export class NotOpenableError extends Error {}

/** Whether opening `name` could run it, by what the name tells an OS. */
export function runsWhenOpened(name: string): boolean {
  // Windows ignores trailing dots and spaces ("run.exe." is run.exe).
  return RUN_WHEN_OPENED.has(path.extname(name.replace(/[. ]+$/, '')).toLowerCase());
}

/**
 * The absolute path of a workspace file another program may open: a regular file inside the workspace
 * (opened without following a link, as a download is: open-workspace-file.ts), not executable, not of
 * a kind some OS runs. A link inside the workspace gives its target's path, so the OS sees the name the
 * check saw. What the workspace changes after this (a race) is the OS's to open; the name stays.
 */
export async function fileToOpenElsewhere(root: string, rel: string): Promise<string> {
  const { handle, stat } = await openWorkspaceEntry(root, rel);
  await handle.close();
  if (!stat.isFile()) throw new WorkspaceFileError('not-a-file', `"${rel}" is not a file; only files can be opened in another app`);
  const { realRoot, segments } = await resolveInWorkspace(root, rel, { followFinal: true });
  const absolute = path.join(realRoot, ...segments);
  const shown = path.basename(rel);
  if (runsWhenOpened(rel) || runsWhenOpened(absolute))
    throw new NotOpenableError(
      `${shown} is a program or script the system could run, so the app does not open it in another app: code in the workspace may have written it. Reveal it in the file manager to open it yourself.`,
    );
  if (process.platform !== 'win32' && (stat.mode & 0o111) !== 0)
    throw new NotOpenableError(
      `${shown} is marked executable, so the app does not open it in another app: code in the workspace may have written it. Reveal it in the file manager to open it yourself.`,
    );
  return absolute;
}
