import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveWorkspaceFileCopy } from '../../../src-main/core/workspace/save-copy';
import { tempWorkspace } from './support/temp-workspace';

// The desktop app's "save a copy": the core side of the Save dialog (the dialog itself is Electron's).

describe('saving a copy of a workspace file', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let dest: string;
  const bytes = randomBytes(300 * 1024);

  beforeEach(() => {
    ws = tempWorkspace();
    mkdirSync(path.join(ws.root, 'out', 'sub'), { recursive: true });
    mkdirSync(ws.outside, { recursive: true });
    dest = path.join(ws.outside, 'saved');
    mkdirSync(dest);
    writeFileSync(path.join(ws.root, 'out', 'plot.png'), bytes);
    writeFileSync(path.join(ws.outside, 'secret.txt'), 'not yours');
  });
  afterEach(() => ws.cleanup());

  it('copies the bytes where the user chose, suggesting the file’s name', async () => {
    const asked: string[] = [];
    const target = path.join(dest, 'copy.png');
    const saved = await saveWorkspaceFileCopy(ws.root, 'out/plot.png', async (name) => (asked.push(name), target));
    expect(asked).toEqual(['plot.png']);
    expect(saved).toEqual({ savedTo: target, bytes: bytes.length });
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(readdirSync(dest)).toEqual(['copy.png']);
  });

  it('writes nothing when the user cancels', async () => {
    expect(await saveWorkspaceFileCopy(ws.root, 'out/plot.png', async () => null)).toBeNull();
    expect(readdirSync(dest)).toEqual([]);
  });

  it('replaces an existing file the user chose to overwrite, and survives saving over the source itself', async () => {
    writeFileSync(path.join(dest, 'copy.png'), 'old');
    await saveWorkspaceFileCopy(ws.root, 'out/plot.png', async () => path.join(dest, 'copy.png'));
    expect(readFileSync(path.join(dest, 'copy.png')).equals(bytes)).toBe(true);
    await saveWorkspaceFileCopy(ws.root, 'out/plot.png', async () => path.join(ws.root, 'out', 'plot.png'));
    expect(readFileSync(path.join(ws.root, 'out', 'plot.png')).equals(bytes)).toBe(true);
    expect(readdirSync(path.join(ws.root, 'out')).sort()).toEqual(['plot.png', 'sub']);
  });

  it('refuses what is not a regular file inside the workspace before asking where to save it', async () => {
    symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'escape.txt'));
    let asked = 0;
    const choose = async () => (asked++, path.join(dest, 'x'));
    await expect(saveWorkspaceFileCopy(ws.root, '../outside/secret.txt', choose)).rejects.toThrow(/goes above the workspace/);
    await expect(saveWorkspaceFileCopy(ws.root, 'escape.txt', choose)).rejects.toThrow(/outside the workspace/);
    await expect(saveWorkspaceFileCopy(ws.root, 'out/sub', choose)).rejects.toThrow(/is a folder/);
    await expect(saveWorkspaceFileCopy(ws.root, 'out/missing.csv', choose)).rejects.toThrow(/does not exist/);
    expect(asked).toBe(0);
    expect(readdirSync(dest)).toEqual([]);
  });

  it('leaves no temporary file behind when the copy cannot be put in place', async () => {
    // A folder where the file should go: the bytes are written to the temporary name, then the rename fails.
    mkdirSync(path.join(dest, 'taken', 'inner'), { recursive: true });
    await expect(saveWorkspaceFileCopy(ws.root, 'out/plot.png', async () => path.join(dest, 'taken'))).rejects.toThrow(
      /EISDIR|ENOTEMPTY|EEXIST|EPERM/,
    );
    expect(readdirSync(dest)).toEqual(['taken']);
    await expect(saveWorkspaceFileCopy(ws.root, 'out/plot.png', async () => path.join(dest, 'no-such-folder', 'copy.png'))).rejects.toThrow(
      /ENOENT/,
    );
    expect(readdirSync(dest)).toEqual(['taken']);
  });
});
