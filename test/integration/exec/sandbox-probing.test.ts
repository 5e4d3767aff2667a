import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxSettings } from '@contract';
import { sandboxProbing } from '../../../src-main/core/exec/sandbox/sandbox-probing';
import { sandboxSupport, type SandboxSupport } from '../../../src-main/core/exec/sandbox/sandbox-support';

// A sandboxed run's probing (sandbox-probing.ts) is made for every run; issue 37 made it cheap: the
// environment is built only when a program is really asked inside the sandbox, and each path is
// walked once per probing. What it decides must not change: a workspace program is still asked
// inside the sandbox, with the code's environment; a system program directly; and the next run's
// probing sees a link that now leads into the workspace.

const SETTINGS: SandboxSettings = { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] };

describe('the sandbox’s probing', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'oi-sandbox-probing-'));
  const workspace = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  mkdirSync(workspace);
  mkdirSync(outside);
  let support: SandboxSupport;
  beforeAll(async () => {
    support = await sandboxSupport();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  function probingWith(env: () => Record<string, string>, settings: SandboxSettings = SETTINGS) {
    if (!support.available) throw new Error(`the sandbox is needed here: ${support.reason}`);
    return sandboxProbing({ support, settings, workspace, tmpRoot: root, env });
  }

  it('asks a workspace program inside the sandbox with the code’s environment, built only then', async () => {
    const tool = path.join(workspace, 'tool');
    writeFileSync(tool, '#!/bin/sh\necho "mark=$OI_PROBE_MARK home=$HOME"\n');
    chmodSync(tool, 0o755);
    let built = 0;
    const probing = probingWith(() => {
      built++;
      return { PATH: '/usr/bin:/bin', HOME: root, OI_PROBE_MARK: 'from-the-environment' };
    });
    // A system program: asked directly, no environment needed.
    expect(await probing.writable('/bin/sh')).toBe(false);
    expect((await probing.ask('/bin/sh', ['-c', 'echo direct'])).stdout.trim()).toBe('direct');
    expect(built).toBe(0);
    // The workspace's: inside the sandbox (its home hidden there), with the environment given.
    expect(await probing.writable(tool)).toBe(true);
    const answer = await probing.ask(tool, []);
    expect(answer.stdout.trim()).toBe('mark=from-the-environment home=' + root);
    expect(built).toBe(1);
  });

  it('counts a read-write extra path under ~ among the writable places (the home from the environment)', async () => {
    const shared = path.join(root, 'shared');
    mkdirSync(shared, { recursive: true });
    const probing = probingWith(() => ({ PATH: '/usr/bin:/bin', HOME: root }), { ...SETTINGS, extraPaths: ['~/shared:rw'] });
    expect(await probing.writable(path.join(shared, 'python'))).toBe(true);
    expect(await probing.writable(path.join(outside, 'python'))).toBe(false);
  });

  it('builds no environment for read-only and sealed extra paths (the app adds them to every run): only a read-write one under ~ needs it', async () => {
    let built = 0;
    const env = () => (built++, { PATH: '/usr/bin:/bin', HOME: root });
    const shared = path.join(root, 'rw-shared');
    const probing = probingWith(env, { ...SETTINGS, extraPaths: [`${outside}:ro`, `${root}/data:sealed`, `${shared}:rw`] });
    expect(await probing.writable(path.join(shared, 'python'))).toBe(true);
    expect(await probing.writable(path.join(outside, 'python'))).toBe(false);
    expect(built).toBe(0);
    // The twin: an entry under ~ is the home's, which only the environment tells.
    expect(await probingWith(env, { ...SETTINGS, extraPaths: ['~/rw-shared:rw'] }).writable(path.join(shared, 'python'))).toBe(true);
    expect(built).toBe(1);
  });

  it('looks at each part once per probing and still follows every link: a second path under the same folders, a relative link, a loop', async () => {
    const bin = path.join(outside, 'versions', 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'python3.11'), '');
    symlinkSync('python3.11', path.join(bin, 'python3'));
    // Beside them, a relative link through another link into the workspace, and two links that lead to each other.
    symlinkSync('python3', path.join(bin, 'python'));
    symlinkSync(path.join(workspace, 'planted'), path.join(bin, 'planted'));
    symlinkSync('planted', path.join(bin, 'via'));
    symlinkSync('loop-b', path.join(bin, 'loop-a'));
    symlinkSync('loop-a', path.join(bin, 'loop-b'));
    const probing = probingWith(() => ({ PATH: '/usr/bin:/bin', HOME: root }));
    expect(await probing.writable(path.join(bin, 'python3'))).toBe(false);
    expect(await probing.writable(path.join(bin, 'python'))).toBe(false);
    expect(await probing.writable(path.join(bin, 'via'))).toBe(true);
    expect(await probing.writable(path.join(bin, 'loop-a'))).toBe(true);
    expect(await probing.writable(path.join(bin, 'python3.11'))).toBe(false);
  });

  it('sees, in the next run’s probing, a link outside that now leads into the workspace', async () => {
    const link = path.join(outside, 'python3');
    symlinkSync('/bin/sh', link);
    const env = () => ({ PATH: '/usr/bin:/bin', HOME: root });
    expect(await probingWith(env).writable(link)).toBe(false);
    unlinkSync(link);
    symlinkSync(path.join(workspace, 'python3'), link);
    expect(await probingWith(env).writable(link)).toBe(true);
  });
});
