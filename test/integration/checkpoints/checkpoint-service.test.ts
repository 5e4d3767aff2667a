import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, symlinkSync, writeFileSync, chmodSync, existsSync, readFileSync, readdirSync, watch } from 'node:fs';
import path from 'node:path';
import { defaultSettings } from '@contract';
import { describe, expect, it } from 'vitest';
import { CheckpointService } from '../../../src-main/core/checkpoints/checkpoint-service';
import { bundleForNode } from '../../support/node-bundle';
import { endWithTest } from '../../support/test-children';
import { useServiceSetup } from './support/service-setup';
import { treeState } from './support/tree-state';

const setup = useServiceSetup('oi-checkpoints-');

const sh = (cwd: string, script: string) => execFileSync('bash', ['-c', script], { cwd, stdio: 'pipe' });

/** The file's text; '' while it is missing (a restore between removing and writing it). */
function textOf(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** SIGKILL to the whole process group led by `pid`, if it is still there. */
function killGroup(pid: number | undefined): void {
  try {
    if (pid) process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** A checkpointed cell that rewrites `file` (in the workspace) from `from` to `to`. */
async function cellRewrites(
  service: CheckpointService,
  conv: { id: string; workspace: string },
  cellId: string,
  file: string,
  from: string,
  to: string,
) {
  writeFileSync(path.join(conv.workspace, file), from);
  await service.before(conv, cellId);
  writeFileSync(path.join(conv.workspace, file), to);
  await service.after(conv, cellId, []);
}

/** A workspace of the shapes that matter: text, binary, executable, symlinks, empty folder, Unicode, a nested repository. */
function populate(ws: string): void {
  writeFileSync(path.join(ws, 'notes.txt'), 'first line\nsecond line\n');
  mkdirSync(path.join(ws, 'src/deep'), { recursive: true });
  writeFileSync(path.join(ws, 'src/deep/data.bin'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256)));
  writeFileSync(path.join(ws, 'src/run.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(path.join(ws, 'src/run.sh'), 0o755);
  symlinkSync('notes.txt', path.join(ws, 'link-to-notes'));
  symlinkSync('/etc/hostname', path.join(ws, 'link-outside'));
  mkdirSync(path.join(ws, 'empty/inner'), { recursive: true });
  writeFileSync(path.join(ws, 'données — 日本.txt'), 'unicode ✓\n');
  sh(
    ws,
    'mkdir project && cd project && git init -q && echo code > main.py && git -c user.email=a@b -c user.name=t add . && git -c user.email=a@b -c user.name=t commit -qm init',
  );
}

describe('checkpoints', () => {
  it('rewinds every change a shell cell made, even rm -rf of everything: bytes, modes, links and folders as they were', async () => {
    const { workspace, service, conv } = setup();
    populate(workspace);
    const before = treeState(workspace);
    await service.before(conv, 'cell1');
    sh(
      workspace,
      'echo changed >> notes.txt && mv src/run.sh src/go.sh && rm src/deep/data.bin && echo new > created.txt && chmod -x src/go.sh && rm link-to-notes && ln -s created.txt link-to-notes',
    );
    const changes = await service.after(conv, 'cell1', []);
    expect(changes.checkpointed).toBe(true);
    const byPath = new Map(changes.files.map((f) => [f.path, f]));
    expect(byPath.get('notes.txt')).toMatchObject({ change: 'modified', previousSize: 23, size: 31 });
    expect(byPath.get('created.txt')).toMatchObject({ change: 'created', size: 4, previousSize: null });
    expect(byPath.get('src/deep/data.bin')).toMatchObject({ change: 'deleted', size: null, previousSize: 4096 });
    expect([...byPath.values()].some((f) => f.path === 'src/go.sh' && (f.change === 'renamed' || f.change === 'created'))).toBe(true);

    await service.before(conv, 'cell2');
    sh(workspace, 'rm -rf -- * .[!.]* 2>/dev/null; true');
    expect(treeState(workspace)).toEqual({});
    await service.after(conv, 'cell2', []);

    expect(await service.restore(conv, 'cell1', false)).toMatchObject({ status: 'restored' });
    expect(treeState(workspace)).toEqual(before);
    // The nested repository came back whole, and git still reads it.
    expect(execFileSync('git', ['log', '--oneline'], { cwd: path.join(workspace, 'project') }).toString()).toContain('init');
  });

  it('keeps and restores every permission bit of files and folders, never more readable than they were (issue 26, item 2)', async () => {
    const { workspace, service, conv } = setup();
    populate(workspace);
    writeFileSync(path.join(workspace, 'secret.txt'), 'token\n');
    chmodSync(path.join(workspace, 'secret.txt'), 0o600);
    mkdirSync(path.join(workspace, 'bin'));
    writeFileSync(path.join(workspace, 'bin', 'tool'), '#!/bin/sh\n');
    chmodSync(path.join(workspace, 'bin', 'tool'), 0o700);
    chmodSync(path.join(workspace, 'bin'), 0o700);
    writeFileSync(path.join(workspace, 'frozen.txt'), 'read only\n');
    chmodSync(path.join(workspace, 'frozen.txt'), 0o444);
    const before = treeState(workspace);
    expect(before['secret.txt']).toMatch(/^file 600 /);
    expect(before['project/.git/objects'] ?? before['project/.git/HEAD']).toBeDefined();
    await service.before(conv, 'cell1');
    // The cell loosens some bits, removes other files, and deletes a repository's .git (444 objects).
    sh(workspace, 'chmod 644 secret.txt && chmod 755 bin bin/tool && rm frozen.txt && rm -rf project/.git && echo x > new.txt');
    await service.after(conv, 'cell1', []);
    expect(treeState(workspace)['secret.txt']).toMatch(/^file 644 /);
    expect((await service.restore(conv, 'cell1', true)).status).toBe('restored');
    expect(treeState(workspace)).toEqual(before);
    const objects = Object.entries(treeState(workspace)).filter(([p]) => p.startsWith('project/.git/objects/') && !p.endsWith('pack'));
    expect(objects.some(([, state]) => state.startsWith('file 444 '))).toBe(true);
  });

  it('diffs a path that changes between file and folder, empty folders included (issue 26, item 3)', async () => {
    const { workspace, service, conv } = setup();
    mkdirSync(path.join(workspace, 'was-folder'));
    writeFileSync(path.join(workspace, 'was-folder', 'inside.txt'), 'in the folder\n');
    mkdirSync(path.join(workspace, 'was-empty'));
    writeFileSync(path.join(workspace, 'was-file'), 'a file\n');
    writeFileSync(path.join(workspace, 'file-then-link'), 'plain\n');
    symlinkSync('was-file', path.join(workspace, 'link-then-folder'));
    await service.before(conv, 'cell1');
    sh(
      workspace,
      'rm -r was-folder && echo now a file > was-folder && rmdir was-empty && echo also a file > was-empty && rm was-file && mkdir was-file && echo inside > was-file/new.txt' +
        ' && rm file-then-link && ln -s was-folder file-then-link && rm link-then-folder && mkdir link-then-folder && touch link-then-folder/x',
    );
    const changes = await service.after(conv, 'cell1', []);
    expect(changes.checkpointed).toBe(true);
    const diffs = await service.diff(conv.id, 'cell1');
    const byPath = new Map(diffs.map((d) => [d.path, d]));
    expect(byPath.get('was-folder')).toMatchObject({ change: 'created', kind: 'text', diff: expect.stringContaining('+now a file') });
    expect(byPath.get('was-folder/inside.txt')).toMatchObject({
      change: 'deleted',
      kind: 'text',
      diff: expect.stringContaining('-in the folder'),
    });
    expect(byPath.get('was-empty')).toMatchObject({ kind: 'text', diff: expect.stringContaining('+also a file') });
    expect(byPath.get('was-file')).toMatchObject({ change: 'deleted', kind: 'text', diff: expect.stringContaining('-a file') });
    expect(byPath.get('was-file/new.txt')).toMatchObject({ change: 'created', kind: 'text', diff: expect.stringContaining('+inside') });
    expect(byPath.get('file-then-link')).toMatchObject({ kind: 'symlink' });
    expect(byPath.get('link-then-folder')).toMatchObject({ change: 'deleted', kind: 'symlink' });
    expect(byPath.get('link-then-folder/x')).toMatchObject({ change: 'created', kind: 'text' });
  });

  it('restores more files than one read from the store holds, identical ones included, each with its own bytes', async () => {
    const { workspace, service, conv } = setup();
    // 18 files just under the chunking size (2 MB) are 34 MB: two batches of the restore's reads
    // (32 MB each, restore.ts). Two pairs share their bytes, one pair across the batches' border.
    const bytesOf = (i: number) => Buffer.alloc(1_900_000, `file ${[1, 2].includes(i) ? 1 : i === 17 ? 0 : i} `);
    const names = Array.from({ length: 18 }, (_, i) => `f${String(i).padStart(2, '0')}.bin`);
    names.forEach((name, i) => writeFileSync(path.join(workspace, name), bytesOf(i)));
    await service.before(conv, 'cell1');
    sh(workspace, 'rm -f -- *.bin && echo other > f05.bin');
    await service.after(conv, 'cell1', []);
    expect(await service.restore(conv, 'cell1', false)).toMatchObject({ status: 'restored' });
    names.forEach((name, i) => expect(readFileSync(path.join(workspace, name)).equals(bytesOf(i)), name).toBe(true));
  });

  it('lists a file the user changed outside the app since, and keeps it unless confirmed', async () => {
    const { workspace, service, conv } = setup();
    await cellRewrites(service, conv, 'cell1', 'report.md', 'draft 1\n', 'draft 2 by the code\n');
    writeFileSync(path.join(workspace, 'report.md'), 'draft 3 by the user\n');
    expect(await service.restore(conv, 'cell1', false)).toEqual({
      status: 'needs-confirmation',
      modifiedOutside: ['report.md'],
      cannotRestore: [],
      cannotRestoreCount: 0,
    });
    expect(readFileSync(path.join(workspace, 'report.md'), 'utf8')).toBe('draft 3 by the user\n');
    expect(await service.restore(conv, 'cell1', true)).toMatchObject({ status: 'restored' });
    expect(readFileSync(path.join(workspace, 'report.md'), 'utf8')).toBe('draft 1\n');
  });

  it('can undo a rewind: the state before it was checkpointed', async () => {
    const { workspace, service, conv } = setup();
    await cellRewrites(service, conv, 'cell1', 'a.txt', 'one', 'two');
    await service.restore(conv, 'cell1', false);
    expect(readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('one');
    const { checkpoints } = await service.list(conv.id);
    const undo = checkpoints.at(-1);
    expect(undo?.cellId).toMatch(/^restore-/);
    await service.restore(conv, undo?.cellId ?? '', false);
    expect(readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('two');
  });

  it('skips ignored folders and oversized files, lists the oversized ones, and keeps small ignored files', async () => {
    const { workspace, service, conv } = setup({ checkpointMaxFileMb: 1 });
    writeFileSync(path.join(workspace, '.gitignore'), 'secret-cache/\n*.log\n');
    mkdirSync(path.join(workspace, 'secret-cache'));
    writeFileSync(path.join(workspace, 'secret-cache/x'), 'x');
    writeFileSync(path.join(workspace, 'debug.log'), 'log');
    mkdirSync(path.join(workspace, '.venv/bin'), { recursive: true });
    writeFileSync(path.join(workspace, '.venv/bin/python'), '#!/bin/sh\n');
    writeFileSync(path.join(workspace, 'big.bin'), Buffer.alloc(2 * 1024 * 1024, 1));
    writeFileSync(path.join(workspace, 'kept.txt'), 'kept');
    const skipped = await service.before(conv, 'cell1');
    expect(skipped).toEqual([{ path: 'big.bin', reason: expect.stringContaining('larger than the 1.0 MB cap') }]);
    rmSync(path.join(workspace, 'kept.txt'));
    rmSync(path.join(workspace, 'debug.log'));
    const changes = await service.after(conv, 'cell1', skipped);
    expect(changes.files.map((f) => f.path)).toEqual(['debug.log', 'kept.txt']);
    expect(changes.skipped.map((s) => s.path)).toEqual(['big.bin']);
    await service.restore(conv, 'cell1', false);
    expect(existsSync(path.join(workspace, 'kept.txt'))).toBe(true);
    // A small ignored file is kept (issue 26, item 1), a small ignored folder too; .venv is not walked, and left as it is.
    expect(readFileSync(path.join(workspace, 'debug.log'), 'utf8')).toBe('log');
    expect(existsSync(path.join(workspace, 'secret-cache/x'))).toBe(true);
    expect(existsSync(path.join(workspace, '.venv/bin/python'))).toBe(true);
  });

  it('never writes through a link the code planted where a folder was', async () => {
    const { top, workspace, service, conv } = setup();
    const outside = path.join(top, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'file.txt'), 'outside, untouched');
    mkdirSync(path.join(workspace, 'dir'));
    writeFileSync(path.join(workspace, 'dir/file.txt'), 'inside');
    await service.before(conv, 'cell1');
    // The code replaces the folder with a link to a folder outside the workspace.
    sh(workspace, `rm -rf dir && ln -s ${outside} dir`);
    await service.after(conv, 'cell1', []);
    await service.restore(conv, 'cell1', false);
    expect(readFileSync(path.join(outside, 'file.txt'), 'utf8')).toBe('outside, untouched');
    expect(treeState(workspace)).toEqual({ dir: 'dir 755', 'dir/file.txt': expect.stringMatching(/^file 644 /) });
    expect(readFileSync(path.join(workspace, 'dir/file.txt'), 'utf8')).toBe('inside');
  });

  it('works for two conversations sharing one folder, and after a restart', async () => {
    const { workspace, dataDir, service } = setup();
    const a = { id: 'convA', workspace };
    const b = { id: 'convB', workspace };
    writeFileSync(path.join(workspace, 'shared.txt'), 'v0');
    await service.before(a, 'a1');
    writeFileSync(path.join(workspace, 'shared.txt'), 'v1');
    await service.after(a, 'a1', []);
    await service.before(b, 'b1');
    writeFileSync(path.join(workspace, 'shared.txt'), 'v2');
    await service.after(b, 'b1', []);
    // A new service over the same data folder (the app restarted).
    const again = new CheckpointService({ dataDir, settings: () => defaultSettings });
    expect((await again.list('convA')).checkpoints.map((c) => c.cellId)).toEqual(['a1']);
    expect(await again.restore(b, 'b1', false)).toMatchObject({ status: 'restored' });
    expect(readFileSync(path.join(workspace, 'shared.txt'), 'utf8')).toBe('v1');
    expect(await again.restore(a, 'a1', true)).toMatchObject({ status: 'restored' });
    expect(readFileSync(path.join(workspace, 'shared.txt'), 'utf8')).toBe('v0');
  });

  it('finishes a restore that was killed midway at the next use, so no mix of states is left', async () => {
    const { top, workspace, dataDir, service, conv } = setup();
    for (let i = 0; i < 300; i++) writeFileSync(path.join(workspace, `f${i}.txt`), `original ${i}\n`);
    const original = treeState(workspace);
    await service.before(conv, 'cell1');
    sh(workspace, 'for f in f*.txt; do echo rewritten > "$f"; done');
    await service.after(conv, 'cell1', []);
    // A separate process group restores and is killed (SIGKILL, all of it) once it has written some files.
    const script = path.join(top, 'restore.mts');
    writeFileSync(
      script,
      `import { CheckpointService } from ${JSON.stringify(path.resolve('src-main/core/checkpoints/checkpoint-service.ts'))};
      import { defaultSettings } from ${JSON.stringify(path.resolve('src-preload/contract/index.ts'))};
      const s = new CheckpointService({ dataDir: ${JSON.stringify(dataDir)}, settings: () => defaultSettings });
      await s.restore({ id: 'conv1', workspace: ${JSON.stringify(workspace)} }, 'cell1', true);\n`,
    );
    // Bundled into one file node loads (test/support/node-bundle.ts: cheaper than tsx's loader). The
    // kill waits on events, not a poll: the journal appearing in the store (the restore has begun),
    // then the workspace's files coming back one by one (inotify, through fs.watch); once 5 hold their
    // original text, the whole group goes. (A bash loop polling with grep every 10 ms used about as
    // much CPU as the restore itself.)
    const bundled = await bundleForNode(script, path.join(top, 'restore.mjs'));
    const stores = path.join(dataDir, 'checkpoints', 'stores');
    const store = path.join(stores, readdirSync(stores).find((name) => name.endsWith('.git')) ?? '');
    const journalFile = path.join(store, 'oi-restore-journal.json');
    const child = endWithTest(spawn(process.execPath, [bundled], { cwd: process.cwd(), detached: true, stdio: 'ignore' }), { group: true });
    const restored = new Set<string>();
    let files: ReturnType<typeof watch> | undefined;
    const journalWatch = watch(store, (_event, name) => {
      if (name !== 'oi-restore-journal.json' || files) return;
      files = watch(workspace, (_change, file) => {
        if (!file || restored.size >= 5 || !/^f\d+\.txt$/.test(file)) return;
        if (textOf(path.join(workspace, file)).startsWith('original')) restored.add(file);
        if (restored.size >= 5) killGroup(child.pid);
      });
    });
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    journalWatch.close();
    files?.close();
    const mid = treeState(workspace);
    const journal = existsSync(journalFile) ? '1' : '0';
    if (journal === '1') {
      // Cut short: a mix on disk now, finished by the next service that opens the store.
      const again = new CheckpointService({ dataDir, settings: () => defaultSettings });
      await again.list(conv.id);
      await again.before(conv, 'probe');
      expect(treeState(workspace)).toEqual(original);
    } else {
      // The kill came after the restore finished: the new state, whole.
      expect(mid).toEqual(original);
    }
    // A second node, and 300 files: past 60 s at a load of ~30.
  }, 300_000);

  it('drops the oldest checkpoints past the conversation budget, and the store shrinks', async () => {
    const { workspace, service, conv } = setup({ checkpointBudgetMb: 10 });
    const rewrite = () => writeFileSync(path.join(workspace, 'big.bin'), randomBytes(4 * 1024 * 1024));
    rewrite();
    for (let i = 1; i <= 5; i++) {
      await service.before(conv, `cell${i}`);
      rewrite();
      await service.after(conv, `cell${i}`, []);
    }
    const { checkpoints, storeBytes } = await service.list(conv.id);
    expect(checkpoints.map((c) => c.cellId)).not.toContain('cell1');
    expect(checkpoints.length).toBeLessThan(5);
    // Six different 4 MB files were written; the store keeps only what live checkpoints need.
    expect(storeBytes).toBeLessThan(6 * 4 * 1024 * 1024);
    await expect(service.restore(conv, 'cell1', false)).rejects.toThrow(/no checkpoint before cell cell1/);
    const last = checkpoints.at(-1)?.cellId ?? '';
    expect(await service.restore(conv, last, false)).toMatchObject({ status: 'restored' });
    // Six 4 MB files through git: past 60 s at a load of ~30.
  }, 300_000);
});
