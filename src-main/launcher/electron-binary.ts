import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Finding, and when missing fetching, the Electron binary for `npm start`.
 *
 * Since Electron 45 the `electron` package has no install step: its binary is fetched the first time
 * something calls `require('electron')`, which writes `path.txt`. electron-vite reads that file itself
 * and never triggers the fetch, so on a fresh clone `npm start` died with "Electron uninstall". We run
 * the package's own installer (`install.js`, which uses @electron/get: mirrors, cache and checksums as
 * the Electron docs describe) instead of re-implementing the download.
 */

/** Where the binary lives once installed, or null when it is not (yet) there. */
export function findElectronBinary(packageDir: string): string | null {
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const relative = readFileSync(pathFile, 'utf8').trim();
  if (!relative) return null;
  const binary = join(packageDir, 'dist', relative);
  return existsSync(binary) ? binary : null;
}

export type FetchResult = { ok: true; binary: string } | { ok: false; reason: string };

/** Runs the electron package's own installer, then looks again. Its output is kept, not shown. */
export async function fetchElectronBinary(packageDir: string, env: NodeJS.ProcessEnv = process.env): Promise<FetchResult> {
  const installer = join(packageDir, 'install.js');
  if (!existsSync(installer)) return { ok: false, reason: `the electron package has no installer at ${installer}` };
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [installer], { cwd: packageDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve({ code: 1, output: error.message }));
    child.on('close', (exitCode) => resolve({ code: exitCode, output }));
  });
  const binary = findElectronBinary(packageDir);
  if (code === 0 && binary) return { ok: true, binary };
  return { ok: false, reason: explainFetchFailure(output) };
}

/** Where @electron/get downloads releases from unless ELECTRON_MIRROR says otherwise. */
const DEFAULT_MIRROR = 'https://github.com/electron/electron/releases/download/';

const NETWORK_CODES: Record<string, string> = {
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  ENETUNREACH: 'the network is unreachable',
  EHOSTUNREACH: 'the host is unreachable',
};

/** One short clause out of the installer's output (a stack trace, usually): what went wrong, and where. */
export function explainFetchFailure(output: string, mirror = process.env.ELECTRON_MIRROR ?? DEFAULT_MIRROR): string {
  // The installer rarely names the URL it tried; the mirror it was given (or GitHub) is where it went.
  const url = /https?:\/\/[^\s'")]+/.exec(output)?.[0] ?? mirror;
  const host = safeHost(url);
  const server = host ?? 'the download server';
  for (const [code, meaning] of Object.entries(NETWORK_CODES)) {
    if (output.includes(code)) return `no network connection to ${server}: ${meaning}`;
  }
  if (/fetch failed|getaddrinfo|socket hang up/i.test(output)) return `no network connection to ${server}`;
  const status = /HTTPError: Response code (\d{3})|status(?: code)? (\d{3})/i.exec(output);
  if (status) return `${server} answered HTTP ${status[1] ?? status[2]}`;
  if (/checksum/i.test(output)) return 'the downloaded file did not match its checksum';
  const firstLine = output
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line && !line.startsWith('at '));
  return firstLine ? firstLine.slice(0, 200) : 'the installer failed without saying why';
}

function safeHost(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** Electron 45's tooling (@electron/get, its unzipper) declares Node >= 22.12; say so when older. */
export function nodeTooOldForElectron(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major < 22 || (major === 22 && minor < 12);
}
