import { stat } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '@contract';
import { launchAppProgram } from '../programs/app-programs';

/**
 * Opens the OS file manager at a file's folder (macOS and Windows select the file itself). Runs on the
 * machine the app runs on, which in browser mode is the same one: it only listens on 127.0.0.1.
 */
export async function revealInFileManager(abs: string): Promise<void> {
  const isDir = (await stat(abs)).isDirectory();
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', isDir ? [abs] : ['-R', abs]]
      : process.platform === 'win32'
        ? ['explorer.exe', isDir ? [abs] : [`/select,${abs}`]]
        : ['xdg-open', [isDir ? abs : path.dirname(abs)]];
  await launchAppProgram(command, args).catch((err: unknown) => {
    throw new Error(`could not open the file manager (${command}): ${errorMessage(err)}`);
  });
}
