import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgentHarness, type AgentHarness } from '../../support/agent-harness';
import { useServiceSetup } from './support/service-setup';
import { treeState } from './support/tree-state';

// Issue 26, item 1: in a git repository, `rm -rf *` deleted gitignored files, the cell listed nothing,
// and a rewind did not bring them back. Small ignored files (and `.env` always) are now kept; what
// cannot be kept is named on the cell and in the rewind's answer.

const serviceSetup = useServiceSetup('oi-ignored-');
let h: AgentHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const sh = (cwd: string, script: string) => execFileSync('bash', ['-c', script], { cwd, stdio: 'pipe' }).toString();
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe' }).toString();

const SECRET = `OPENAI_API_KEY=sk-${randomBytes(12).toString('hex')}\n`;
const OVER_CAP = 2 * 1024 * 1024;

/**
 * A git repository with ignored files of every kind that matters: small ones in recorded folders, a
 * `.env` (600) and a `.env.local` over the ignored-file cap, an ignored log over the cap, an ignored
 * folder (dist/) and node_modules/. Returns the paths expected back byte for byte after a rewind.
 */
function repository(ws: string): string[] {
  writeFileSync(path.join(ws, '.gitignore'), '*.o\n*.log\n.env\n.env.*\ndist/\nnode_modules/\n');
  mkdirSync(path.join(ws, 'src'));
  writeFileSync(path.join(ws, 'src/main.c'), 'int main(void) { return 0; }\n');
  git(ws, 'init', '-q');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'init');
  writeFileSync(path.join(ws, 'src/main.o'), randomBytes(3000));
  chmodSync(path.join(ws, 'src/main.o'), 0o640);
  writeFileSync(path.join(ws, 'debug.log'), 'started\nran\n');
  writeFileSync(path.join(ws, '.env'), SECRET);
  chmodSync(path.join(ws, '.env'), 0o600);
  writeFileSync(path.join(ws, '.env.local'), randomBytes(OVER_CAP)); // a secrets file: kept over the cap
  writeFileSync(path.join(ws, 'trace.log'), randomBytes(OVER_CAP)); // over the cap: not kept
  mkdirSync(path.join(ws, 'dist'));
  writeFileSync(path.join(ws, 'dist/app.js'), 'built\n');
  mkdirSync(path.join(ws, 'node_modules/left-pad'), { recursive: true });
  writeFileSync(path.join(ws, 'node_modules/left-pad/index.js'), 'module.exports = 1;\n');
  return ['src/main.o', 'debug.log', '.env', '.env.local', 'dist/app.js'];
}

function setup() {
  return serviceSetup({ checkpointIgnoredMaxKb: 1024 });
}

const pick = (state: Record<string, string>, paths: string[]) => Object.fromEntries(paths.map((p) => [p, state[p]]));

/** The store's bare repository (one per workspace). */
function storeOf(dataDir: string): string {
  const stores = path.join(dataDir, 'checkpoints', 'stores');
  return path.join(stores, readdirSync(stores)[0] ?? '');
}

const hasObject = (gitDir: string, sha: string) => spawnSync('git', ['--git-dir', gitDir, 'cat-file', '-e', sha]).status === 0;
const blobId = (file: string) => execFileSync('git', ['hash-object', '--no-filters', file]).toString().trim();

describe('ignored files in checkpoints (issue 26, item 1)', () => {
  it('keeps small ignored files and .env, restores them byte for byte after rm -rf *, and names what it could not keep', async () => {
    const { workspace, dataDir, service, conv } = setup();
    const kept = repository(workspace);
    const before = treeState(workspace);
    const statusBefore = git(workspace, 'status', '--porcelain', '--ignored');
    const envSha = blobId(path.join(workspace, '.env'));
    const moduleSha = blobId(path.join(workspace, 'node_modules/left-pad/index.js'));

    await service.before(conv, 'cell1');
    sh(workspace, 'rm -rf -- * .env .env.local');
    const changes = await service.after(conv, 'cell1', []);
    expect(changes.files.map((f) => `${f.change} ${f.path}`)).toEqual(
      expect.arrayContaining(['deleted .env', 'deleted .env.local', 'deleted debug.log', 'deleted src/main.o', 'deleted src/main.c']),
    );
    expect(changes.unrestorable?.map((u) => `${u.change} ${u.path}`)).toEqual(['deleted node_modules', 'deleted trace.log']);
    expect(changes.unrestorableCount).toBe(2);
    expect(changes.unrestorable?.find((u) => u.path === 'trace.log')?.reason).toMatch(/larger than the 1\.0 MB cap for ignored files/);
    // A `.env`'s diff says it changed, never what it holds.
    expect((await service.diff(conv.id, 'cell1')).find((d) => d.path === '.env')).toMatchObject({ kind: 'secret' });

    const outcome = await service.restore(conv, 'cell1', false);
    expect(outcome).toMatchObject({ status: 'restored', cannotRestoreCount: 2 });
    expect(outcome.cannotRestore.map((u) => u.path)).toEqual(['node_modules', 'trace.log']);
    const after = treeState(workspace);
    expect(pick(after, kept)).toEqual(pick(before, kept));
    expect(after['.env']).toMatch(/^file 600 /);
    expect(after['src/main.o']).toMatch(/^file 640 /);
    expect(after['src/main.c']).toBe(before['src/main.c']);
    expect(existsSync(path.join(workspace, 'trace.log'))).toBe(false);

    // The kept .env is in the app's store only: never in the person's repository, whose state is as it was
    // except for what the cell deleted and no rewind could bring back.
    expect(hasObject(storeOf(dataDir), envSha)).toBe(true);
    expect(hasObject(path.join(workspace, '.git'), envSha)).toBe(false);
    expect(git(workspace, 'status', '--porcelain', '--ignored')).toBe(statusBefore.replace(/^!! (node_modules|trace\.log)\/?\n/gm, ''));
    // node_modules/ is never read: nothing of it is in the store.
    expect(hasObject(storeOf(dataDir), moduleSha)).toBe(false);
  });

  it('never deletes an over-cap ignored file a rewind cannot put back, and lists it as changed', async () => {
    const { workspace, service, conv } = setup();
    repository(workspace);
    await service.before(conv, 'cell1');
    // Truncated below the cap: now it would be kept, but what it was is not.
    sh(workspace, 'echo short > trace.log');
    const changes = await service.after(conv, 'cell1', []);
    expect(changes.unrestorable).toEqual([expect.objectContaining({ path: 'trace.log', change: 'changed' })]);
    const outcome = await service.restore(conv, 'cell1', false);
    expect(outcome).toMatchObject({
      status: 'restored',
      cannotRestore: [expect.objectContaining({ path: 'trace.log', change: 'changed' })],
    });
    expect(readFileSync(path.join(workspace, 'trace.log'), 'utf8')).toBe('short\n');
  });

  it('keeps small files inside an ignored folder through the change journal, restores them, and names a folder past its cap', async () => {
    const { workspace, service, conv } = setup();
    writeFileSync(path.join(workspace, '.gitignore'), 'build/\nlogs/\n');
    git(workspace, 'init', '-q');
    git(workspace, 'add', '-A');
    git(workspace, 'commit', '-qm', 'init');
    mkdirSync(path.join(workspace, 'build/sub'), { recursive: true });
    writeFileSync(path.join(workspace, 'build/out.o'), randomBytes(3000));
    chmodSync(path.join(workspace, 'build/out.o'), 0o640);
    writeFileSync(path.join(workspace, 'build/sub/extra.o'), randomBytes(500));
    mkdirSync(path.join(workspace, 'build/node_modules/dep'), { recursive: true });
    writeFileSync(path.join(workspace, 'build/node_modules/dep/index.js'), 'module.exports = 1;\n');
    // Past the cap of names for an ignored folder: fingerprinted, never walked.
    mkdirSync(path.join(workspace, 'logs'));
    for (let i = 0; i <= 1000; i++) writeFileSync(path.join(workspace, `logs/${i}.log`), `${i}\n`);
    const kept = ['build/out.o', 'build/sub', 'build/sub/extra.o'];
    const before = treeState(workspace);

    // The first checkpoint walks and starts the journal; the cell's are then the journal's.
    await service.before(conv, 'cell0');
    await service.after(conv, 'cell0', []);
    await service.before(conv, 'cell1');
    // The ignored folders stay; what is inside them changes.
    sh(workspace, 'rm -rf build/sub build/node_modules && echo rebuilt > build/out.o && echo new > logs/new.log');
    const changes = await service.after(conv, 'cell1', []);
    expect(changes.files.map((f) => `${f.change} ${f.path}`).sort()).toEqual(['deleted build/sub/extra.o', 'modified build/out.o']);
    expect(changes.unrestorable?.map((u) => `${u.change} ${u.path}`)).toEqual(['deleted build/node_modules', 'changed logs']);
    expect(changes.unrestorable?.find((u) => u.path === 'logs')?.reason).toMatch(/an ignored folder of more than 1000 names/);
    expect(changes.unrestorable?.find((u) => u.path === 'build/node_modules')?.reason).toMatch(/installed dependencies/);

    const outcome = await service.restore(conv, 'cell1', false);
    expect(outcome).toMatchObject({ status: 'restored', cannotRestoreCount: 2 });
    expect(outcome.cannotRestore.map((u) => u.path)).toEqual(['build/node_modules', 'logs']);
    const after = treeState(workspace);
    expect(pick(after, kept)).toEqual(pick(before, kept));
    expect(after['build/out.o']).toMatch(/^file 640 /);
    // What could not be kept is left as it is, never deleted because the tree does not hold it.
    expect(readFileSync(path.join(workspace, 'logs/new.log'), 'utf8')).toBe('new\n');
    expect(existsSync(path.join(workspace, 'build/node_modules'))).toBe(false);
  });

  it('through the app: a shell cell running rm -rf * lists what it could not keep, and the rewind puts back the rest', async () => {
    h = await startAgentHarness({ settings: { autoRun: true }, checkpoints: true });
    const id = await h.newConversation();
    const workspace = (await h.agent.snapshot(id)).workspace;
    const kept = repository(workspace);
    const before = treeState(workspace, (p) => p.startsWith('.oi'));
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c1', name: 'execute', arguments: { language: 'shell', code: 'rm -rf -- * .env .env.local' } }] },
      { kind: 'text', text: 'Cleaned.' },
    );
    await h.send(id, 'clean up');
    const cell = (await h.agent.snapshot(id)).items.find((i) => i.kind === 'cell');
    if (cell?.kind !== 'cell') throw new Error('no cell');
    expect(cell.changes?.unrestorable?.map((u) => u.path)).toEqual(['node_modules', 'trace.log']);
    // The model is told too, by name.
    expect(cell.resultForModel).toMatch(/could not keep \(a rewind cannot put them back\):\ndeleted node_modules\ndeleted trace\.log/);

    const outcome = await h.agent.rewind(id, cell.id, { confirm: false, cut: false });
    expect(outcome).toMatchObject({ status: 'restored', cannotRestoreCount: 2 });
    expect(pick(treeState(workspace), kept)).toEqual(pick(before, kept));
    // The key in .env went nowhere but the store: not into the conversation's file or any other app file.
    const inStoreOrWorkspace = (p: string) => p.includes(`${path.sep}stores${path.sep}`) || p.startsWith(workspace + path.sep);
    expect(filesHolding(h.dataDir, SECRET.trim(), inStoreOrWorkspace)).toEqual([]);
  });
});

/** Files under `dir` whose text holds `needle` (the store's objects are compressed, so `skip` them). */
function filesHolding(dir: string, needle: string, skip: (p: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || skip(full)) continue;
    if (readFileSync(full).includes(needle)) out.push(full);
  }
  return out;
}
