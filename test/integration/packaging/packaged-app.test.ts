import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { extractAll, extractFile, listPackage, statFile } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellPaths } from '../../../src-main/electron/shell-paths';
import { REPO } from '../../support/built-output';
import { mainImports } from './main-imports';
import { dependencyClosure, filesUnder, type PackagedApp, packageApp, sizeOf } from './packaged-build';

// Issue 33, item 1: what `npm run dist` packages (electron-builder.yml), built once for the whole file
// (packaged-build.ts: `electron-builder --dir` around a stand-in Electron) and checked from the
// outside: the archive's contents, the native modules beside it, the resources, and the packaged
// main's module graph loaded under Node from the packaged layout.

const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

let app: PackagedApp;
/** Every path in app.asar, relative, without the leading slash. */
let archived: string[];

beforeAll(async () => {
  app = await packageApp();
  archived = listPackage(app.asar, { isPack: false }).map((entry) =>
    entry
      .replace(/^[/\\]/, '')
      .split(path.sep)
      .join('/'),
  );
}, 300_000);

afterAll(() => {
  if (app) rmSync(app.work, { recursive: true, force: true });
});

/** The packages the archive holds, at any depth, as `name@version`. */
function archivedPackages(): Set<string> {
  const manifests = archived.filter((entry) => /(^|\/)node_modules\/(@[^/]+\/)?[^/@]+\/package\.json$/.test(entry));
  return new Set(
    manifests.map((entry) => {
      const { name, version } = JSON.parse(extractFile(app.asar, entry).toString('utf8')) as { name: string; version: string };
      return `${name}@${version}`;
    }),
  );
}

describe('the packaged app (electron-builder --dir)', () => {
  it('holds the built main, preload and renderer in app.asar, and nothing of the repository besides', () => {
    const built = filesUnder(path.join(REPO, 'out'))
      .filter((f) => !f.endsWith('.map'))
      .map((f) => `out/${f}`);
    expect(built).toContain('out/main/index.js');
    expect(built).toContain('out/preload/index.cjs');
    expect(built).toContain('out/renderer/index.html');
    const files = new Set(archived.filter((entry) => !('files' in statFile(app.asar, entry))));
    for (const file of built) expect(files.has(file), file).toBe(true);
    const outside = [...files].filter((f) => !f.startsWith('out/') && !f.startsWith('node_modules/') && f !== 'package.json');
    expect(outside).toEqual([]);
  });

  it("holds exactly the packages the built main loads at run time, package.json's dependencies, and what they need", async () => {
    // What the built main imports from node_modules (the rest is bundled into out/), read from every
    // chunk's syntax. `dependencies` must be exactly those, so no
    // bundled package is shipped twice and none the main loads is missing.
    const { bare } = mainImports(path.join(REPO, 'out', 'main'));
    const loadedPackages = new Set(
      bare.map((spec) =>
        spec
          .split('/')
          .slice(0, spec.startsWith('@') ? 2 : 1)
          .join('/'),
      ),
    );
    expect(Object.keys(manifest.dependencies).sort()).toEqual([...loadedPackages].sort());
    const expected = dependencyClosure(REPO, Object.keys(manifest.dependencies));
    const shipped = archivedPackages();
    // Optional platform packages of other systems are not installed here, so closure ⊆ shipped is exact.
    expect([...shipped].filter((p) => !expected.has(p)).sort()).toEqual([]);
    expect([...expected].filter((p) => !shipped.has(p)).sort()).toEqual([]);
    const shippedNames = new Set([...shipped].map((p) => p.slice(0, p.lastIndexOf('@'))));
    const devOnly = Object.keys(manifest.devDependencies).filter((name) => ![...expected].some((p) => p.startsWith(`${name}@`)));
    expect(devOnly.length).toBeGreaterThan(20);
    for (const name of devOnly) expect(shippedNames.has(name), name).toBe(false);
  });

  it('ships no sources, type declarations, source maps, tests or build inputs', () => {
    const everything = [...archived, ...filesUnder(app.unpacked).map((f) => `(unpacked) ${f}`)];
    const unwanted = everything.filter(
      (f) =>
        /\.(ts|mts|cts|tsx|map)$/.test(f) ||
        /\.(test|spec)\.[cm]?js$/.test(f) ||
        /(^|\/)(test|tests|__tests__)\//.test(f) ||
        /(^|\/)(binding\.gyp|Makefile|[^/]+\.mk)$/.test(f) ||
        /node_modules\/node-pty\/(src|deps|scripts|typings)\//.test(f),
    );
    expect(unwanted.slice(0, 20)).toEqual([]);
  });

  it('unpacks the native modules (node-pty, the keyring) beside the archive, where they load and work', async () => {
    const natives = filesUnder(app.unpacked).filter((f) => f.endsWith('.node'));
    expect(natives).toContain('node_modules/node-pty/build/Release/pty.node');
    expect(natives.some((f) => /^node_modules\/@napi-rs\/keyring-linux-[^/]+\/keyring\.linux-[^/]+\.node$/.test(f))).toBe(true);
    // The archive lists them as unpacked: Electron reads them from app.asar.unpacked, not from inside.
    for (const file of natives) expect(statFile(app.asar, file), file).toMatchObject({ unpacked: true });
    const probe = `
      const path = require('node:path');
      const modules = process.argv[1];
      const { Entry } = require(path.join(modules, '@napi-rs/keyring'));
      if (typeof Entry !== 'function') throw new Error('the keyring has no Entry');
      const pty = require(path.join(modules, 'node-pty'));
      const term = pty.spawn('/bin/sh', ['-c', 'echo packaged-pty-$((6*7))'], { cols: 80, rows: 24 });
      let out = '';
      term.onData((d) => (out += d));
      term.onExit(() => { process.stdout.write(JSON.stringify({ out })); process.exit(0); });`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', probe, path.join(app.unpacked, 'node_modules')]);
    expect((JSON.parse(stdout) as { out: string }).out).toContain('packaged-pty-42');
  });

  it('puts resources/ (runners, shell scripts, sandbox profiles, helpers) where the packaged main looks for it', () => {
    const mainDir = path.join(app.asar, 'out', 'main');
    const paths = shellPaths(mainDir, { isPackaged: true, resourcesPath: app.resourcesPath });
    expect(paths.packageRoot).toBe(app.asar);
    expect(path.relative(app.asar, paths.outDir)).toBe('out');
    const wanted = filesUnder(path.join(REPO, 'resources')).filter((f) => !f.startsWith('build/') && !/__pycache__|\.pyc$/.test(f));
    expect(wanted.filter((f) => f.startsWith('runners/')).length).toBeGreaterThan(3);
    for (const file of wanted) {
      const packaged = path.join(paths.resourcesDir, file);
      expect(existsSync(packaged), file).toBe(true);
      // Executables (the shell helpers) keep their mode: child processes run them.
      expect(statSync(packaged).mode & 0o111, file).toBe(statSync(path.join(REPO, 'resources', file)).mode & 0o111);
    }
    expect(existsSync(app.executable)).toBe(true);
  });

  it("loads the packaged main's whole module graph from the packaged layout, every module found", async () => {
    const mainDir = path.join(app.work, 'extracted', 'out', 'main');
    const { loaded, failures } = await mainGraph();
    // Every chunk a chunk names by a relative path was built (the loader loads them all but the entries).
    const missing = mainImports(mainDir).relative.filter((file) => !existsSync(file));
    expect(missing).toEqual([]);
    expect(failures).toEqual([]);
    expect(loaded).toContain('index.js');
    expect(loaded).toEqual(expect.arrayContaining(['node-pty', '@napi-rs/keyring', '@jupyterlab/services', 'yaml']));
  });

  it('records the sizes: app.asar and the unpacked native modules', () => {
    const sizes = {
      asarBytes: statSync(app.asar).size,
      unpackedBytes: sizeOf(app.unpacked),
      resourcesBytes: sizeOf(path.join(app.resourcesPath, 'resources')),
    };
    console.info(`packaged sizes: ${JSON.stringify(sizes)}`);
    // The budget docs/release.md gives (was 85 MB before issue 33 pruned the archive).
    expect(sizes.asarBytes).toBeLessThan(40 * 1024 * 1024);
    expect(sizes.unpackedBytes).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('the desktop integration the Linux packages carry, and the file associations', () => {
  // What Electron reads at run time: the packaged package.json's desktopName names the desktop file it
  // belongs to and becomes the window's WM_CLASS (Electron's lib/browser/init.ts, app.setDesktopName).
  const packagedManifest = () => JSON.parse(extractFile(app.asar, 'package.json').toString('utf8')) as { desktopName?: string };
  const entry = (): Map<string, string> =>
    new Map(
      app.linux.desktopEntry
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );

  it("names the desktop file after the app, with its name, icon, categories and the window's WM_CLASS", () => {
    const desktopName = packagedManifest().desktopName ?? '';
    expect(desktopName).toBe('open-interpreter-desktop.desktop');
    expect(app.linux.desktopFileName).toBe(desktopName);
    const fields = entry();
    expect(fields.get('Name')).toBe('Open Interpreter Desktop');
    expect(fields.get('StartupWMClass')).toBe(desktopName.replace(/\.desktop$/, ''));
    expect(fields.get('Icon')).toBe(app.linux.executableName);
    expect(fields.get('Categories')).toBe('Development;IDE;');
    expect(fields.get('Exec')).toMatch(/ %U$/);
    expect(fields.get('MimeType')?.split(';')).toContain('application/x-ipynb+json');
    // Conversation links (a scheduled run's notification, clicked with the app closed) open in the app.
    expect(fields.get('MimeType')?.split(';')).toContain('x-scheme-handler/open-interpreter');
  });

  it('declares the .ipynb MIME type by its glob, and ships the app’s own icon rather than Electron’s', () => {
    expect(app.linux.mimeXml).toMatch(/<mime-type type="application\/x-ipynb\+json">\s*<glob pattern="\*\.ipynb"\/>/);
    expect(Math.max(...app.linux.icons.map((i) => i.size))).toBeGreaterThanOrEqual(512);
    for (const icon of app.linux.icons) expect(icon.file.startsWith(path.join(REPO, 'resources', 'build')), icon.file).toBe(true);
  });

  it('associates .ipynb on macOS and Windows too (an editor, offered without taking the default), and the .deb recommends bubblewrap', () => {
    expect(app.linux.fileAssociations).toEqual([expect.objectContaining({ ext: 'ipynb', role: 'Editor', rank: 'Alternate' })]);
    expect(app.linux.deb?.recommends).toContain('bubblewrap');
    expect(app.linux.deb?.depends ?? []).not.toContain('bubblewrap');
  });
});

interface GraphResult {
  loaded: string[];
  failures: { name: string; code: string | null; message: string }[];
}
let graph: Promise<GraphResult> | undefined;

/** The archive extracted (unpacked files included, as Electron overlays them) and the graph loaded once. */
function mainGraph(): Promise<GraphResult> {
  graph ??= (async () => {
    const extracted = path.join(app.work, 'extracted');
    extractAll(app.asar, extracted);
    const probe = path.join(extracted, 'out', 'main', 'load-main-graph.mjs');
    copyFileSync(path.join(import.meta.dirname, 'load-main-graph.mjs'), probe);
    const packages = JSON.stringify(mainImports(path.dirname(probe)).bare);
    const standIn = path.join(import.meta.dirname, 'electron-stand-in.mjs');
    const { stdout } = await promisify(execFile)(process.execPath, [probe, standIn, packages], {
      cwd: app.work,
      maxBuffer: 16 * 1024 * 1024,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as GraphResult;
  })();
  return graph;
}
