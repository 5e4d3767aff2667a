import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookConfigCache } from '../../../src-main/core/hooks/hook-config-cache';
import type { HookConfigSources, LoadedHooks } from '../../../src-main/core/hooks/hook-config';

// The hooks files are kept between events while nothing they depend on has changed (issue 37: an
// `oi mcp` execute read them twice, 1–4 ms), and a change must still count at the very next event:
// a guard the person adds runs, one removed no longer does, a link put in a file's place is not
// followed. Real files; each change is the kind an editor, `git checkout` or sandboxed code makes.

const hooksFile = (command: string) => JSON.stringify({ hooks: { beforeCell: [{ command }] } });
const commands = (loaded: LoadedHooks) => loaded.hooks.map((h) => `${h.source}:${h.spec.command}`);

describe('the hooks files kept between events', () => {
  let root: string;
  let workspace: string;
  let wsFile: string;
  let sources: HookConfigSources;

  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oi-hook-cache-')));
    workspace = path.join(root, 'repo', 'ws');
    mkdirSync(path.join(workspace, '.agents'), { recursive: true });
    wsFile = path.join(workspace, '.agents', 'hooks.json');
    sources = { userFile: path.join(root, 'hooks.json'), settingsHooks: {}, trustedFolders: [workspace] };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Writes a file and sets its mtime to a whole second, which utimes can give back exactly. */
  function writeAged(file: string, text: string): void {
    writeFileSync(file, text);
    utimesSync(file, 1_700_000_000, 1_700_000_000);
  }

  /** Rewrites a file in place (same size) until its ctime moves on, then sets its mtime back: only the ctime tells. */
  function rewriteInPlaceKeepingMtime(file: string, text: string): void {
    const before = lstatSync(file, { bigint: true });
    writeFileSync(file, text);
    while (lstatSync(file, { bigint: true }).ctimeNs === before.ctimeNs) chmodSync(file, 0o644);
    utimesSync(file, 1_700_000_000, 1_700_000_000);
  }

  it('reads again at once a file rewritten in the same instant as the last read (same size)', async () => {
    const cache = new HookConfigCache();
    writeFileSync(wsFile, hooksFile('echo a'));
    writeFileSync(sources.userFile!, hooksFile('echo 1'));
    expect(commands(await cache.load(workspace, sources))).toEqual(['user-file:echo 1', 'workspace:echo a']);
    writeFileSync(wsFile, hooksFile('echo b'));
    writeFileSync(sources.userFile!, hooksFile('echo 2'));
    expect(commands(await cache.load(workspace, sources))).toEqual(['user-file:echo 2', 'workspace:echo b']);
  });

  it('never keeps a load of a file changed within the last clock ticks, whose times could repeat; twin: a minute later it does', async () => {
    writeFileSync(wsFile, hooksFile('echo a'));
    const changedAt = Number(lstatSync(wsFile, { bigint: true }).ctimeNs / 1_000_000n);
    const soon = new HookConfigCache(() => changedAt + 10);
    const first = await soon.load(workspace, sources);
    expect(await soon.load(workspace, sources)).not.toBe(first);
    const later = new HookConfigCache(() => changedAt + 60_000);
    const kept = await later.load(workspace, sources);
    expect(await later.load(workspace, sources)).toBe(kept);
  });

  it('keeps a load while nothing changed, and sees a file edited in place with its mtime set back', async () => {
    // As if the files were written long ago: only their identity tells a change.
    const cache = new HookConfigCache(() => Date.now() + 60_000);
    writeAged(wsFile, hooksFile('echo a'));
    const first = await cache.load(workspace, sources);
    expect(await cache.load(workspace, sources)).toBe(first);
    rewriteInPlaceKeepingMtime(wsFile, hooksFile('echo b'));
    expect(commands(await cache.load(workspace, sources))).toEqual(['workspace:echo b']);
  });

  it('sees a file replaced, created or removed, and a settings change', async () => {
    const cache = new HookConfigCache(() => Date.now() + 60_000);
    expect(commands(await cache.load(workspace, sources))).toEqual([]);
    writeFileSync(sources.userFile!, hooksFile('echo mine'));
    expect(commands(await cache.load(workspace, sources))).toEqual(['user-file:echo mine']);
    writeFileSync(`${wsFile}.new`, hooksFile('echo c'));
    renameSync(`${wsFile}.new`, wsFile);
    expect(commands(await cache.load(workspace, sources))).toEqual(['user-file:echo mine', 'workspace:echo c']);
    rmSync(sources.userFile!);
    expect(commands(await cache.load(workspace, sources))).toEqual(['workspace:echo c']);
    const withSettings = { ...sources, settingsHooks: { beforeCell: [{ command: 'echo s' }] } };
    expect(commands(await cache.load(workspace, withSettings))).toEqual(['settings:echo s', 'workspace:echo c']);
  });

  it('stops using a workspace’s hooks once its trust goes: the folder untrusted, or a .git above it moving its trust folder', async () => {
    const cache = new HookConfigCache(() => Date.now() + 60_000);
    writeFileSync(wsFile, hooksFile('echo a'));
    expect(commands(await cache.load(workspace, sources))).toEqual(['workspace:echo a']);
    const untrusted = await cache.load(workspace, { ...sources, trustedFolders: [] });
    expect(untrusted.hooks).toEqual([]);
    expect(untrusted.untrusted).toEqual({ file: wsFile, folder: workspace });
    expect(commands(await cache.load(workspace, sources))).toEqual(['workspace:echo a']);
    // The repository root above is now the folder to trust, and the person trusted only the workspace.
    mkdirSync(path.join(root, 'repo', '.git'));
    const moved = await cache.load(workspace, sources);
    expect(moved.hooks).toEqual([]);
    expect(moved.untrusted).toEqual({ file: wsFile, folder: path.join(root, 'repo') });
  });

  it('does not follow a link put in place of the kept file’s folder', async () => {
    const cache = new HookConfigCache(() => Date.now() + 60_000);
    writeFileSync(wsFile, hooksFile('echo a'));
    expect(commands(await cache.load(workspace, sources))).toEqual(['workspace:echo a']);
    const elsewhere = path.join(root, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, 'hooks.json'), hooksFile('echo a'));
    rmSync(path.join(workspace, '.agents'), { recursive: true });
    symlinkSync(elsewhere, path.join(workspace, '.agents'));
    expect(commands(await cache.load(workspace, sources))).toEqual([]);
  });
});
