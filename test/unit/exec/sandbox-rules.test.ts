import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bubblewrapArgs } from '../../../src-main/core/exec/sandbox/bubblewrap-args';
import { describeSandbox } from '../../../src-main/core/exec/sandbox/describe-sandbox';
import { parseExtraPath, planSandbox, type SandboxPlan } from '../../../src-main/core/exec/sandbox/sandbox-plan';
import { seatbeltProfile } from '../../../src-main/core/exec/sandbox/seatbelt-profile';

const PLAN: SandboxPlan = {
  workspace: '/home/ana/projects/demo',
  privateDir: '/tmp/oi-sandbox-abc',
  hidden: ['/home/ana', '/root', '/run'],
  systemFiles: ['/run/systemd/resolve/stub-resolv.conf'],
  privateTemp: ['/tmp', '/var/tmp'],
  extra: [
    { path: '/home/ana/data', writable: false },
    { path: '/srv/out', writable: true },
  ],
  sealed: [],
  network: false,
  proxyPort: null,
  newSession: false,
};

describe('the bubblewrap command line', () => {
  const args = bubblewrapArgs(PLAN, { file: '/usr/bin/python3', args: ['/opt/oi/runner.py'] }, ['/home/ana/.pyenv/versions/3.12.1']);
  const at = (flag: string, value: string): number => args.findIndex((a, i) => a === flag && args[i + 1] === value);

  it('hides the home before binding the workspace back into it, and makes it read-only last', () => {
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
    expect(at('--tmpfs', '/home/ana')).toBeGreaterThan(0);
    expect(at('--bind', '/home/ana/projects/demo')).toBeGreaterThan(at('--tmpfs', '/home/ana'));
    expect(at('--ro-bind', '/home/ana/.pyenv/versions/3.12.1')).toBeGreaterThan(at('--tmpfs', '/home/ana'));
    expect(at('--remount-ro', '/home/ana')).toBeGreaterThan(at('--bind', '/home/ana/projects/demo'));
    expect(at('--remount-ro', '/tmp')).toBe(-1);
  });

  it('adds extra paths read-only or read-write, cuts the network, and runs the command last', () => {
    expect(at('--ro-bind-try', '/home/ana/data')).toBeGreaterThan(0);
    expect(at('--bind-try', '/srv/out')).toBeGreaterThan(0);
    expect(args).toContain('--unshare-net');
    expect(args).toContain('--unshare-pid');
    expect(args).toContain('--die-with-parent');
    expect(args).not.toContain('--new-session');
    expect(args.slice(-3)).toEqual(['--', '/usr/bin/python3', '/opt/oi/runner.py']);
    expect(bubblewrapArgs({ ...PLAN, network: true }, { file: 'x', args: [] }, [])).not.toContain('--unshare-net');
  });

  it('gives one-off programs no controlling terminal; sessions keep theirs', () => {
    expect(bubblewrapArgs({ ...PLAN, newSession: true }, { file: 'x', args: [] }, [])).toContain('--new-session');
    expect(args).not.toContain('--new-session');
  });

  it('shows system files inside a hidden folder again, read-only, after hiding it', () => {
    expect(at('--ro-bind-try', '/run/systemd/resolve/stub-resolv.conf')).toBeGreaterThan(at('--tmpfs', '/run'));
  });
});

describe('plan mode (docs/agent.md#plan-mode)', () => {
  it('binds the workspace read-only, keeps it among the zones code could have written, and says so', () => {
    const args = bubblewrapArgs({ ...PLAN, workspaceReadOnly: true }, { file: '/usr/bin/python3', args: [] }, []);
    expect(args.findIndex((a, i) => a === '--ro-bind' && args[i + 1] === PLAN.workspace)).toBeGreaterThan(0);
    expect(args.findIndex((a, i) => a === '--bind' && args[i + 1] === PLAN.workspace)).toBe(-1);
    expect(seatbeltProfile({ ...PLAN, workspaceReadOnly: true }, [])).not.toContain(`(allow file-write* (subpath "${PLAN.workspace}")`);
    const settings = { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] };
    const bwrap = { available: true as const, tool: 'bubblewrap' as const, path: '/usr/bin/bwrap' };
    expect(describeSandbox({ ...settings, workspaceReadOnly: true }, bwrap)).toContain('workspace read-only (plan mode)');
    expect(describeSandbox(settings, bwrap)).toContain('writable: the workspace and a private /tmp');
  });
});

describe('the plan on this machine', () => {
  it('hides /run (and /var/run, by its real path) with the homes', () => {
    const plan = planSandbox({
      settings: { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] },
      workspace: '/srv/ws',
      privateDir: '/tmp/p',
    });
    expect(plan.hidden).toContain(realpathSync('/run'));
    expect(plan.hidden).toContain(realpathSync('/var/run'));
    expect(plan.hidden).not.toContain('/run/user');
    expect(plan.newSession).toBe(false);
  });
});

describe('the macOS profile', () => {
  const profile = seatbeltProfile(
    { ...PLAN, hidden: ['/Users/ana'], workspace: '/Users/ana/projects/demo', privateDir: '/private/var/folders/x/T/oi-sandbox-abc' },
    ['/Users/ana/.pyenv/versions/3.12.1'],
  );

  it('denies writes except the workspace, the private folder and extra read-write paths', () => {
    expect(profile).toContain('(deny file-write*)');
    expect(profile).toMatch(
      /\(allow file-write\* \(subpath "\/Users\/ana\/projects\/demo"\) \(subpath "\/private\/var\/folders\/x\/T\/oi-sandbox-abc"\) \(subpath "\/srv\/out"\)/,
    );
  });

  it('hides the home except what the session needs, later rules overriding earlier ones', () => {
    const deny = profile.indexOf('(deny file-read* (subpath "/Users/ana"))');
    const allow = profile.indexOf('(allow file-read* (subpath "/Users/ana/projects/demo")');
    expect(deny).toBeGreaterThan(0);
    expect(allow).toBeGreaterThan(deny);
    expect(profile).toContain('(subpath "/Users/ana/.pyenv/versions/3.12.1")');
    expect(profile).toContain('(allow file-read-metadata (literal "/Users/ana/projects")');
  });

  it('denies the network except the session socket, unless allowed', () => {
    expect(profile).toContain('(deny network*)');
    expect(profile).toContain('(allow network* (remote unix-socket (path-regex #"^/private/var/folders/x/T/oi-sandbox-abc/")))');
    expect(seatbeltProfile({ ...PLAN, network: true }, [])).not.toContain('(deny network*)');
  });

  it('quotes paths so a quote in a folder name cannot end the string', () => {
    const odd = seatbeltProfile({ ...PLAN, workspace: '/Users/ana/a"b\\c' }, []);
    expect(odd).toContain('(subpath "/Users/ana/a\\"b\\\\c")');
  });
});

describe('describing the sandbox', () => {
  const settings = { enabled: true, chosen: true, allowNetwork: false, extraPaths: ['~/data', '/srv/out:rw'], allowedHosts: [] };

  it('lists exactly the protections of each tool', () => {
    expect(describeSandbox(settings, { available: true, tool: 'bubblewrap', path: '/usr/bin/bwrap' }, '/home/ana')).toBe(
      'bubblewrap: system files read-only; writable: the workspace and a private /tmp; home folders hidden; sockets in /run hidden; network off; own process namespace (cannot see or signal other processes); stops when the app stops; also visible: ~/data (read-only), /srv/out (read-write)',
    );
    const mac = describeSandbox(
      { ...settings, extraPaths: [], allowNetwork: true },
      { available: true, tool: 'sandbox-exec', path: '/usr/bin/sandbox-exec' },
      '/Users/ana',
    );
    expect(mac).toBe(
      'sandbox-exec: writable: the workspace and a private temp folder; home folders unreadable; network allowed; no process isolation (macOS cannot provide it)',
    );
  });

  it('never pretends: unavailable is said, and off is nothing', () => {
    expect(describeSandbox(settings, { available: false, reason: 'Windows has no sandbox this app can use' })).toBe(
      'requested but unavailable, so nothing runs: Windows has no sandbox this app can use',
    );
    expect(describeSandbox({ ...settings, enabled: false }, { available: true, tool: 'bubblewrap', path: '/usr/bin/bwrap' })).toBeNull();
    expect(describeSandbox(undefined, { available: true, tool: 'bubblewrap', path: '/usr/bin/bwrap' })).toBeNull();
  });

  it('reads extra paths as read-only unless marked :rw', () => {
    expect(parseExtraPath('~/data', '/home/ana')).toEqual({ path: '/home/ana/data', writable: false });
    expect(parseExtraPath('/srv/out:rw', '/home/ana')).toEqual({ path: '/srv/out', writable: true });
    expect(parseExtraPath('/srv/in:ro', '/home/ana')).toEqual({ path: '/srv/in', writable: false });
  });
});
