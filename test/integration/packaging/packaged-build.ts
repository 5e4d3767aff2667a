import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO } from '../../support/built-output';

// One `electron-builder --dir` of the built app (out/), the way `npm run dist` packages it, for the
// packaging tests to inspect. The Electron binary cannot be downloaded here, so electronDist points at
// a stand-in Electron folder: what electron-builder does with a real one for linux-unpacked is copy the
// folder as it is and rename its `electron` executable to the app's (app-builder-lib's
// ElectronFramework.beforeCopyExtraFiles), so one executable file is all it needs.

export interface PackagedApp {
  /** dist/linux-unpacked */
  appDir: string;
  /** Electron's process.resourcesPath in that app. */
  resourcesPath: string;
  asar: string;
  unpacked: string;
  /** The executable electron-builder renamed the stand-in to. */
  executable: string;
  /** What linux-integration-hook.mjs wrote: the desktop file, MIME types, icons, deb and association config. */
  linux: LinuxIntegration;
  work: string;
}

export interface LinuxIntegration {
  desktopFileName: string;
  desktopEntry: string;
  mimeXml: string | null;
  icons: { size: number; file: string }[];
  executableName: string;
  deb: { recommends?: string[]; depends?: string[] } | null;
  fileAssociations: { ext: string | string[]; mimeType?: string; role?: string; rank?: string; name?: string }[];
}

/** The stand-in: an `electron` executable that only says what it is. */
function standInElectron(work: string): string {
  const dist = path.join(work, 'electron-dist');
  mkdirSync(dist);
  writeFileSync(path.join(dist, 'electron'), '#!/bin/sh\necho "stand-in Electron: the real binary cannot be downloaded here"\n');
  chmodSync(path.join(dist, 'electron'), 0o755);
  return dist;
}

export async function packageApp(): Promise<PackagedApp> {
  if (!existsSync(path.join(REPO, 'out/main/index.js'))) throw new Error('no out/main/index.js: run `npm run build` first');
  const work = mkdtempSync(path.join(os.tmpdir(), 'oi-packaged-'));
  const output = path.join(work, 'dist');
  await promisify(execFile)(
    path.join(REPO, 'node_modules/.bin/electron-builder'),
    [
      '--linux',
      '--dir',
      `--config.electronDist=${standInElectron(work)}`,
      `--config.directories.output=${output}`,
      // Rebuilding node-pty for Electron needs Electron's headers from the network; the modules as
      // built for this Node are what the load checks can load anyway.
      '--config.npmRebuild=false',
      // What the .deb and AppImage targets would carry for the desktop (they need downloaded tools).
      `--config.afterPack=${path.join(import.meta.dirname, 'linux-integration-hook.mjs')}`,
    ],
    { cwd: REPO, env: { ...process.env, CI: '1' }, maxBuffer: 16 * 1024 * 1024 },
  );
  const appDir = path.join(output, 'linux-unpacked');
  const resourcesPath = path.join(appDir, 'resources');
  const linux = JSON.parse(readFileSync(path.join(output, 'linux-integration.json'), 'utf8')) as LinuxIntegration;
  return {
    appDir,
    resourcesPath,
    asar: path.join(resourcesPath, 'app.asar'),
    unpacked: path.join(resourcesPath, 'app.asar.unpacked'),
    executable: path.join(appDir, linux.executableName),
    linux,
    work,
  };
}

/** Every file under `dir`, relative to it, with `/` separators. */
export function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(path.join(dir, entry.name), rel) : [rel];
  });
}

/** The bytes of every file under `dir`. */
export function sizeOf(dir: string): number {
  return filesUnder(dir).reduce((sum, rel) => sum + statSync(path.join(dir, rel)).size, 0);
}

/**
 * The packages installed for `names` and everything they depend on (dependencies and the optional
 * ones installed), as `name@version`, resolved the way Node does: from the dependent's own
 * node_modules upwards. (electron-builder places them in the archive by its own hoisting, so where
 * each sits may differ from node_modules here; which packages, in which versions, may not.)
 */
export function dependencyClosure(root: string, names: readonly string[]): Set<string> {
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string, from: string, optional: boolean): void => {
    for (let dir = from; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', name);
      if (existsSync(path.join(candidate, 'package.json'))) {
        if (seen.has(candidate)) return;
        seen.add(candidate);
        const manifest = JSON.parse(readFileSync(path.join(candidate, 'package.json'), 'utf8')) as {
          version: string;
          dependencies?: Record<string, string>;
          optionalDependencies?: Record<string, string>;
        };
        found.add(`${name}@${manifest.version}`);
        for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, candidate, false);
        for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, candidate, true);
        return;
      }
      if (dir === root || dir === path.dirname(dir)) break;
    }
    if (!optional) throw new Error(`${name} (needed from ${path.relative(root, from) || 'the app'}) is not installed`);
  };
  for (const name of names) visit(name, root, false);
  return found;
}
