/**
 * `npm start`: make sure the Electron binary is there (fetching it through the electron package's own
 * installer when it is not), then build and launch the app with electron-vite. Where the binary cannot
 * be had, one sentence says why and points to browser mode, instead of electron-vite's stack trace.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchElectronBinary, findElectronBinary, nodeTooOldForElectron } from './electron-binary';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function electronPackageDir(): string {
  // OI_ELECTRON_DIR: lets the tests point at a copy of the package with no binary in it.
  if (process.env.OI_ELECTRON_DIR) return process.env.OI_ELECTRON_DIR;
  return dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'));
}

async function main(): Promise<number> {
  const packageDir = electronPackageDir();
  let binary = findElectronBinary(packageDir);
  if (!binary) {
    process.stderr.write('Fetching the Electron binary (first start only)…\n');
    const fetched = await fetchElectronBinary(packageDir);
    if (!fetched.ok) {
      const nodeNote = nodeTooOldForElectron()
        ? ` Electron 45's installer also needs Node.js 22.12 or later (this is ${process.versions.node}).`
        : '';
      process.stderr.write(
        `npm start: the Electron binary is not installed and could not be downloaded (${fetched.reason}); ` +
          `run \`npm run serve\` to use the same app in your browser instead.${nodeNote}\n`,
      );
      return 1;
    }
    binary = fetched.binary;
  }
  const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const child = spawn(process.execPath, [cli, 'preview', ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_EXEC_PATH: binary },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

process.exitCode = await main();
