import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../../src-main/core/exec';
import { bubblewrapArgs } from '../../../src-main/core/exec/sandbox/bubblewrap-args';
import { describeSandbox } from '../../../src-main/core/exec/sandbox/describe-sandbox';
import { parseExtraPath, planSandbox, type SandboxPlan } from '../../../src-main/core/exec/sandbox/sandbox-plan';
import { seatbeltProfile } from '../../../src-main/core/exec/sandbox/seatbelt-profile';

// The app's data folder is sealed: never writable inside the sandbox, even when the workspace or a
// read-write extra path contains it (issue 24's principle: its hooks.json runs outside the sandbox).
// The order of bubblewrap's mount operations is what makes it hold; the attack itself is in
// test/security/attacks/sealed-data-folder.test.ts.

const DATA = '/home/ana/.config/oi';
const SKILLS = `${DATA}/skills`;

/** `oi` started in the home: the workspace contains the data folder. */
const PLAN: SandboxPlan = {
  workspace: '/home/ana',
  privateDir: '/tmp/oi-sandbox-abc',
  hidden: ['/home/ana', '/run'],
  systemFiles: [],
  privateTemp: ['/tmp', '/var/tmp'],
  extra: [{ path: SKILLS, writable: false }],
  sealed: [DATA],
  network: false,
  proxyPort: null,
  newSession: false,
};

/** The arguments, and where `flag value` last occurs in them (-1: nowhere). */
function argsOf(plan: SandboxPlan): { args: string[]; at: (flag: string, value: string) => number } {
  const args = bubblewrapArgs(plan, { file: '/bin/sh', args: [] }, []);
  return { args, at: (flag, value) => args.findLastIndex((a, i) => a === flag && args[i + 1] === value) };
}

describe('a sealed folder under bubblewrap', () => {
  it('is emptied after the workspace bind, its skills shown again read-only, and made read-only last', () => {
    const { at } = argsOf(PLAN);
    expect(at('--tmpfs', DATA)).toBeGreaterThan(at('--bind', '/home/ana'));
    expect(at('--ro-bind-try', SKILLS)).toBeGreaterThan(at('--tmpfs', DATA));
    expect(at('--remount-ro', DATA)).toBeGreaterThan(at('--ro-bind-try', SKILLS));
    expect(at('--remount-ro', DATA)).toBeGreaterThan(at('--bind', PLAN.privateDir));
  });

  it('is sealed too when a read-write extra path contains it', () => {
    const { at } = argsOf({ ...PLAN, workspace: '/srv/project', extra: [{ path: '/home/ana/.config', writable: true }] });
    expect(at('--tmpfs', DATA)).toBeGreaterThan(at('--bind-try', '/home/ana/.config'));
    expect(at('--remount-ro', DATA)).toBeGreaterThan(at('--tmpfs', DATA));
  });

  it('is left alone when nothing writable contains it (already hidden or read-only)', () => {
    const { args } = argsOf({ ...PLAN, workspace: '/home/ana/projects/demo' });
    expect(args).not.toContain(DATA);
  });

  it('keeps a workspace inside it (a conversation’s own folder) writable: nothing to seal, or bound again after the seal', () => {
    const own = `${DATA}/conversations/c1/files`;
    expect(argsOf({ ...PLAN, workspace: own }).args.filter((a) => a === DATA)).toEqual([]);
    const { at } = argsOf({ ...PLAN, workspace: own, extra: [{ path: '/home/ana', writable: true }] });
    expect(at('--bind', own)).toBeGreaterThan(at('--tmpfs', DATA));
    expect(at('--remount-ro', DATA)).toBeGreaterThan(at('--bind', own));
  });

  it('shows a workspace that is the sealed folder itself read-only', () => {
    const { at } = argsOf({ ...PLAN, workspace: DATA });
    expect(at('--ro-bind', DATA)).toBeGreaterThan(at('--bind', DATA));
    expect(at('--tmpfs', DATA)).toBe(-1);
  });
});

describe('a sealed folder elsewhere', () => {
  it('reaches the plan from the settings as the app passes it, never as an extra path', () => {
    const base = { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] };
    const settings = Sandbox.withSealedFolder(Sandbox.withReadableFolder(base, SKILLS), DATA);
    const real = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oi-sealed-unit-')));
    try {
      const plan = planSandbox({
        settings: Sandbox.withSealedFolder(settings, real),
        workspace: '/home/ana',
        privateDir: '/tmp/x',
        home: '/home/ana',
      });
      // Only the folder that exists: one that does not is nothing to protect.
      expect(plan.sealed).toEqual([real]);
      expect(plan.extra).toEqual([{ path: SKILLS, writable: false }]);
    } finally {
      rmSync(real, { recursive: true });
    }
    expect(parseExtraPath(`${DATA}:sealed`, '/home/ana')).toEqual({ path: DATA, writable: false });
    expect(describeSandbox(settings, { available: true, tool: 'bubblewrap', path: '/usr/bin/bwrap' }, '/home/ana')).toContain(
      'also visible: ~/.config/oi/skills (read-only); never writable: ~/.config/oi',
    );
  });

  it('is denied writes in the macOS profile after the allows (the later rule wins), a workspace inside it allowed again', () => {
    const profile = seatbeltProfile(PLAN, []);
    const deny = profile.indexOf(`(deny file-write* (subpath "${DATA}"))`);
    expect(deny).toBeGreaterThan(profile.indexOf('(allow file-write* (subpath "/home/ana")'));
    const own = `${DATA}/conversations/c1/files`;
    const inside = seatbeltProfile({ ...PLAN, workspace: own, extra: [{ path: '/home/ana', writable: true }] }, []);
    expect(inside.indexOf(`(allow file-write* (subpath "${own}"))`)).toBeGreaterThan(
      inside.indexOf(`(deny file-write* (subpath "${DATA}"))`),
    );
  });
});
