import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ChangeJournal } from '../../../src-main/core/checkpoints/change-journal';
import { GitObjects } from '../../../src-main/core/checkpoints/git-objects';
import { Snapshotter } from '../../../src-main/core/checkpoints/snapshot';

// The change journal is an accelerator (change-journal.ts): a checkpoint it helps must be exactly the
// checkpoint a whole walk takes. Every step below changes the workspace the way code does — one shell
// command, as fast as it can — and then both take a snapshot; the trees must be the same object.

const top = mkdtempSync(path.join(os.tmpdir(), 'oi-journal-'));
const journals: ChangeJournal[] = [];
afterAll(async () => {
  for (const j of journals) await j.close();
  rmSync(top, { recursive: true, force: true });
});

const MAX = { maxFileBytes: 50 * 1024 * 1024, ignoredMaxBytes: 1024 * 1024 };
const sh = (cwd: string, script: string) => execFileSync('bash', ['-c', script], { cwd, stdio: 'pipe' });

async function pair(name: string, options: { overflowAt?: number } = {}) {
  const ws = path.join(top, name);
  mkdirSync(ws);
  const journal = new ChangeJournal(options);
  journals.push(journal);
  const withJournal = new GitObjects(path.join(top, `${name}-j.git`));
  const walking = new GitObjects(path.join(top, `${name}-w.git`));
  await withJournal.init();
  await walking.init();
  const fast = new Snapshotter(withJournal, ws, journal);
  const slow = new Snapshotter(walking, ws, null);
  const both = async () => {
    const [a, b] = [await fast.take(MAX), await slow.take(MAX)];
    return { fast: a, slow: b };
  };
  return { ws, journal, fast, slow, both };
}

describe('change journal', () => {
  it('gives the same checkpoint as a whole walk after every kind of change', async () => {
    const { ws, both } = await pair('kinds');
    sh(
      ws,
      'mkdir -p src/deep empty ignored && printf "ignored/\\n*.log\\n" > .gitignore && echo a > src/a.txt && echo b > src/deep/b.txt && echo x > ignored/x && echo l > run.log && ln -s src/a.txt link',
    );
    const steps: Array<[string, string]> = [
      ['nothing', 'true'],
      ['same size, same second', 'echo c > src/a.txt'],
      ['a new folder tree in one command', 'mkdir -p n/m/o && echo 1 > n/m/o/one && echo 2 > n/m/two'],
      ['a folder renamed', 'mv src src2'],
      ['a folder removed', 'rm -rf n'],
      ['a folder swapped for a link', 'mv src2 real && ln -s real src2'],
      ['only the executable bit', 'chmod +x real/a.txt'],
      ['only the times', 'touch real/deep/b.txt'],
      ['written inside an ignored folder', 'echo y > ignored/y && echo more >> run.log'],
      // Issue 26, item 1: a small ignored folder is recorded whole, so the journal watches inside it.
      ['a sub-folder made inside an ignored folder', 'mkdir -p ignored/sub && echo z > ignored/sub/z'],
      ['a file deleted in a sub-folder of an ignored folder', 'rm ignored/sub/z'],
      ['an ignored folder grown past its cap', 'mkdir ignored/many && cd ignored/many && seq 1 1001 | xargs touch'],
      ['a name made directly in an ignored folder past its cap', 'echo w > ignored/w'],
      ['an ignored folder back under its cap', 'rm -rf ignored/many'],
      ['installed dependencies', 'mkdir -p node_modules/pkg && echo 1 > node_modules/pkg/i.js'],
      ['a name made directly in installed dependencies', 'echo 2 > node_modules/two.js'],
      ['.gitignore changed', 'printf "*.log\\n" > .gitignore'],
      ['a file renamed over another', 'mv real/a.txt real/deep/b.txt'],
      ['a folder removed and made again with other content', 'rm -rf real/deep && mkdir real/deep && echo new > real/deep/c.txt'],
      ['a link re-pointed', 'ln -sfn real/deep link'],
      ['an empty folder filled and emptied', 'echo t > empty/t && rm empty/t'],
      ['a nested repository', 'mkdir proj && cd proj && git init -q && echo code > main.py'],
      // The sandbox binds the workspace into its own mount namespace (bubblewrap-args.ts): the same files, the same notifications.
      [
        'written from inside bubblewrap',
        `bwrap --ro-bind / / --bind "$PWD" "$PWD" --chdir "$PWD" --unshare-all --new-session sh -c 'echo s > sandboxed.txt && mkdir -p sb/x && echo 1 > sb/x/y && rm -rf real'`,
      ],
      ['everything deleted', 'find . -mindepth 1 -maxdepth 1 -exec rm -rf {} +'],
    ];
    const first = await both();
    expect(first.fast.tree).toBe(first.slow.tree);
    for (const [what, script] of steps) {
      sh(ws, script);
      const now = await both();
      expect(now.fast.tree, what).toBe(now.slow.tree);
      expect(now.fast.files, what).toBe(now.slow.files);
      expect(now.fast.skipped.map((s) => s.path).sort(), what).toEqual(now.slow.skipped.map((s) => s.path).sort());
      // The fingerprints of what is not recorded (an ignored folder past its cap, node_modules) too.
      expect(now.fast.unkept, what).toBe(now.slow.unkept);
    }
  });

  it('gives the same checkpoint as a whole walk through 150 random changes', async () => {
    const { ws, both } = await pair('random');
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const names = ['a', 'b', 'c', 'd'];
    const somePath = () => Array.from({ length: 1 + rand(3) }, () => names[rand(names.length)]).join('/');
    const ops = [
      (p: string) => `mkdir -p "$(dirname ${p})" && [ ! -d ${p} ] && echo ${rand(1000)} > ${p} || true`,
      (p: string) => `rm -rf ${p}`,
      (p: string) => `mkdir -p ${p} 2>/dev/null || true`,
      (p: string) => `[ -e ${p} ] && mv ${p} ${p}_moved 2>/dev/null || true`,
      (p: string) => `[ -f ${p} ] && chmod +x ${p} || true`,
      (p: string) => `[ -d "$(dirname ${p})" ] && ln -sfn ../x ${p} 2>/dev/null || true`,
    ];
    for (let i = 0; i < 150; i++) {
      sh(ws, Array.from({ length: 1 + rand(4) }, () => ops[rand(ops.length)]?.(somePath())).join('; '));
      const now = await both();
      expect(now.fast.tree, `after step ${i}`).toBe(now.slow.tree);
    }
  });

  it('walks everything when it saw so many events that some may have been lost', async () => {
    const { ws, journal, fast } = await pair('overflow', { overflowAt: 50 });
    writeFileSync(path.join(ws, 'seed'), 'x');
    await fast.take(MAX);
    sh(ws, 'for i in $(seq 1 10); do echo $i > f$i; done');
    // Asked directly (the snapshot asks the same): a few events are vouched for…
    expect(await journal.take(ws)).toMatchObject({ whole: false });
    sh(ws, 'for i in $(seq 1 200); do echo $i > f$i; done');
    // …but 200 are past the bound (a kernel queue that overflowed drops events silently to fs.watch).
    expect(await journal.take(ws)).toMatchObject({ whole: true, reason: expect.stringMatching(/events since the last checkpoint/) });
  });

  it('walks everything for a folder it was never asked to watch, and when its thread is gone', async () => {
    const { ws, journal } = await pair('stopped');
    expect(await journal.take(ws)).toMatchObject({ whole: true, reason: 'not watched' });
    expect(await journal.watch(ws)).toBe(true);
    await journal.close();
    expect(await journal.take(ws)).toMatchObject({ whole: true, reason: expect.stringMatching(/no change journal/) });
  });

  it('gives up a thread that never answers: checkpoints walk, and the thread no longer holds the process', async () => {
    const ws = path.join(top, 'stuck');
    mkdirSync(ws);
    // A thread blocked for good before it reads a message, as one stuck loading its code would be.
    const stuck = { file: 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);', eval: true };
    const journal = new ChangeJournal({ entry: stuck, replyTimeoutMs: 500 });
    journals.push(journal);
    writeFileSync(path.join(ws, 'a.txt'), 'a');
    const objects = new GitObjects(path.join(top, 'stuck.git'));
    await objects.init();
    const snap = new Snapshotter(objects, ws, journal);
    // Both checkpoints finish, the second after the journal was given up (a whole walk sees the change).
    const first = await snap.take(MAX);
    writeFileSync(path.join(ws, 'b.txt'), 'b');
    const second = await snap.take(MAX);
    expect(second.tree).not.toBe(first.tree);
    expect(await journal.take(ws)).toMatchObject({ whole: true, reason: expect.stringMatching(/did not answer within 0.5 s/) });
    // The thread was ended: nothing of the journal keeps an event loop alive (the MessagePort a
    // ref'd worker shows as is gone).
    await vi.waitFor(() => expect(process.getActiveResourcesInfo()).not.toContain('MessagePort'), { timeout: 15_000, interval: 50 });
  });
});
