import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { explainFetchFailure, fetchElectronBinary, findElectronBinary } from '../../../src-main/launcher/electron-binary';

const repo = join(import.meta.dirname, '..', '..', '..');
const realPackage = join(repo, 'node_modules', 'electron');
const version = (JSON.parse(readFileSync(join(realPackage, 'package.json'), 'utf8')) as { version: string }).version;

const temps: string[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A copy of the electron package without its binary; NODE_PATH lets its installer find @electron/get. */
function packageWithoutBinary(): { dir: string; env: NodeJS.ProcessEnv } {
  const top = mkdtempSync(join(tmpdir(), 'oi-electron-'));
  temps.push(top);
  const dir = join(top, 'electron');
  mkdirSync(dir);
  for (const file of ['package.json', 'install.js', 'index.js', 'checksums.json']) copyFileSync(join(realPackage, file), join(dir, file));
  const env = { ...process.env, NODE_PATH: join(repo, 'node_modules'), electron_config_cache: join(top, 'cache') };
  return { dir, env };
}

/** A local release mirror, laid out as GitHub's: v<version>/electron-v<version>-<platform>-<arch>.zip + SHASUMS256.txt. */
async function mirrorWithRelease(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'oi-mirror-'));
  temps.push(work);
  writeFileSync(join(work, 'electron'), '#!/bin/sh\necho "fake electron $*"\n', { mode: 0o755 });
  writeFileSync(join(work, 'version'), `v${version}`);
  const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;
  execFileSync('zip', ['-q', zipName, 'electron', 'version'], { cwd: work });
  const zip = readFileSync(join(work, zipName));
  const shasums = `${createHash('sha256').update(zip).digest('hex')} *${zipName}\n`;
  const server = createServer((req, res) => {
    if (req.url === `/v${version}/${zipName}`) return res.end(zip);
    if (req.url === `/v${version}/SHASUMS256.txt`) return res.end(shasums);
    res.statusCode = 404;
    res.end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/`;
}

function npmStart(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['start', '--silent', ...args], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the Electron binary for npm start', () => {
  it('is found through path.txt when installed, and not when the file it names is missing', () => {
    const { dir } = packageWithoutBinary();
    expect(findElectronBinary(dir)).toBeNull();
    writeFileSync(join(dir, 'path.txt'), 'electron');
    expect(findElectronBinary(dir)).toBeNull();
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'electron'), '');
    expect(findElectronBinary(dir)).toBe(join(dir, 'dist', 'electron'));
  });

  it('is fetched through the electron package’s own installer when missing', async () => {
    const { dir, env } = packageWithoutBinary();
    const mirror = await mirrorWithRelease();
    const result = await fetchElectronBinary(dir, { ...env, ELECTRON_MIRROR: mirror, electron_use_remote_checksums: '1' });
    expect(result).toEqual({ ok: true, binary: join(dir, 'dist', 'electron') });
    expect(readFileSync(join(dir, 'dist', 'electron'), 'utf8')).toContain('fake electron');
  });

  it('explains a failed fetch in one clause: network, HTTP status, or the first line', () => {
    expect(explainFetchFailure('TypeError: fetch failed\n    at x', 'https://github.com/electron/')).toBe(
      'no network connection to github.com',
    );
    expect(explainFetchFailure('Error: connect ECONNREFUSED 127.0.0.1:9', 'http://127.0.0.1:9/')).toBe(
      'no network connection to 127.0.0.1:9: the connection was refused',
    );
    expect(explainFetchFailure('HTTPError: Response code 404 (Not Found)', 'http://m/')).toBe('m answered HTTP 404');
    expect(explainFetchFailure('Error: something odd\n    at y', 'http://m/')).toBe('Error: something odd');
  });

  it('npm start fetches a missing binary, then hands it to electron-vite to launch the app', async () => {
    const { dir, env } = packageWithoutBinary();
    const mirror = await mirrorWithRelease();
    const { code, stdout } = await npmStart(['--', '--skipBuild'], {
      ...env,
      OI_ELECTRON_DIR: dir,
      ELECTRON_MIRROR: mirror,
      electron_use_remote_checksums: '1',
      ELECTRON_ENTRY: 'the-app-entry.js',
    });
    expect(code).toBe(0);
    expect(stdout).toContain('fake electron the-app-entry.js');
  });

  it('npm start with no binary and no network says why in one sentence and points to npm run serve', async () => {
    const { dir, env } = packageWithoutBinary();
    const mirror = await closedPortUrl();
    const { code, stderr } = await npmStart([], { ...env, OI_ELECTRON_DIR: dir, ELECTRON_MIRROR: mirror });
    expect(code).not.toBe(0);
    expect(stderr).toContain('the Electron binary is not installed and could not be downloaded');
    expect(stderr).toContain('no network connection to 127.0.0.1');
    expect(stderr).toContain('npm run serve');
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toContain('Electron uninstall');
  });
});
