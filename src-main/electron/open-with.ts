import type { Shell } from 'electron';
import type { Handler } from '../core/bridge/handler-table';
import { launchAppProgram } from '../core/programs/app-programs';
import { fileToOpenElsewhere } from '../core/workspace/file-to-open';

/** What "Open with…" needs of Electron and the OS; tests pass stand-ins that record what was opened. */
export interface OpenWithParts {
  shell: Pick<Shell, 'openPath'>;
  platform: NodeJS.Platform;
  /** Starts one of the OS's own programs (the one launcher, core/programs). */
  launch: (program: string, args: string[]) => Promise<void>;
  /** The file's absolute path once it may be opened; the attack tests' twins pass one that checks nothing. */
  resolve: (root: string, rel: string) => Promise<string>;
}

const DEFAULT_PARTS: Omit<OpenWithParts, 'shell' | 'platform'> = { launch: launchAppProgram, resolve: fileToOpenElsewhere };

/**
 * `workspace.open-with`: a workspace file in another app. Windows has a chooser of its own ("Open
 * with", shell32's OpenAs_RunDLL); macOS and Linux have none a program can show, so there the file
 * goes to its default app (shell.openPath). The renderer names a workspace path only: where it leads
 * is checked by `resolve` (core/workspace/file-to-open.ts) before anything is opened.
 */
export function openWithHandler(
  workspaceOf: (conversationId: string) => Promise<string>,
  parts: Pick<OpenWithParts, 'shell' | 'platform'> & Partial<OpenWithParts>,
): Handler<'workspace.open-with'> {
  const { shell, platform, launch, resolve } = { ...DEFAULT_PARTS, ...parts };
  return async ({ conversationId, path: rel }) => {
    const file = await resolve(await workspaceOf(conversationId), rel);
    if (platform === 'win32') {
      await launch('rundll32.exe', ['shell32.dll,OpenAs_RunDLL', file]);
      return { opened: true, chooser: true };
    }
    // openPath answers with an error message, empty when the OS opened the file.
    const failure = await shell.openPath(file);
    if (failure) throw new Error(`could not open ${rel} in another app: ${failure}`);
    return { opened: true, chooser: false };
  };
}
