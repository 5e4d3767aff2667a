import { describe, expect, it } from 'vitest';
import type { SandboxSettings } from '@contract';
import { Sandbox } from '../../../src-main/core/exec';

// What the confirmations, the sandbox chip and the CLI say the code can still reach: never fewer
// gaps than docs/sandbox.md lists, never a protection describeSandbox does not claim.

const bwrap: Sandbox.SandboxSupport = { available: true, tool: 'bubblewrap', path: '/usr/bin/bwrap' };
const seatbelt: Sandbox.SandboxSupport = { available: true, tool: 'sandbox-exec', path: '/usr/bin/sandbox-exec' };
const missing: Sandbox.SandboxSupport = { available: false, reason: 'bubblewrap is not installed' };
const on: SandboxSettings = { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] };

describe('what the sandbox leaves open', () => {
  it('with no sandbox: your files, the network, other programs, and on Linux the keychain', () => {
    expect(Sandbox.sandboxGaps({ ...on, enabled: false }, bwrap, 'linux')).toEqual([
      'your files: it can read, change and delete anything your user can',
      'the network',
      'your keychain: it can read the stored API keys over the session bus',
      'your other programs: it can see them and signal them',
    ]);
    expect(Sandbox.sandboxGaps(undefined, missing, 'darwin').join(' ')).not.toContain('keychain');
    // No keychain here (keys kept in the app's memory): no keychain to warn of.
    expect(Sandbox.sandboxGaps({ ...on, enabled: false }, bwrap, 'linux', false).join(' ')).not.toContain('keychain');
    expect(Sandbox.autoRunWarning({ ...on, enabled: false }, bwrap, 'linux', false)).toBe(
      'No sandbox: code will run as you, with access to your files and the network.',
    );
    expect(Sandbox.autoRunWarning({ ...on, enabled: false }, bwrap, 'linux')).toBe(
      'No sandbox: code will run as you, with access to your files, the network and your keychain (it can read the stored API keys over the session bus).',
    );
    expect(Sandbox.sandboxProtections({ ...on, enabled: false }, bwrap)).toEqual([]);
  });

  it('with bubblewrap: the workspace, readable system files, the environment, the kernel; the network only when allowed', () => {
    const gaps = Sandbox.sandboxGaps(on, bwrap, 'linux');
    expect(gaps[0]).toMatch(/^the workspace/);
    expect(gaps.join(' ')).not.toMatch(/network|keychain|other programs/);
    expect(gaps).toContain('the kernel: this is not a virtual machine');
    expect(Sandbox.sandboxGaps({ ...on, allowNetwork: true }, bwrap, 'linux')).toContain(
      'the network: allowed and unfiltered, including services on this machine',
    );
  });

  it('with sandbox-exec: other programs too (macOS has no process isolation)', () => {
    expect(Sandbox.sandboxGaps(on, seatbelt, 'darwin')).toContain('your other programs: it can see them and signal yours');
  });

  it('lists as protected exactly the phrases of the sentence every sandboxed cell shows', () => {
    const cases: Array<[SandboxSettings, Sandbox.SandboxSupport]> = [
      [on, bwrap],
      [{ ...on, allowNetwork: true, extraPaths: ['/data:rw'], allowedHosts: [] }, bwrap],
      [on, seatbelt],
    ];
    for (const [settings, support] of cases) {
      const sentence = Sandbox.describeSandbox(settings, support, '/home/u');
      expect(`${support.available ? support.tool : ''}: ${Sandbox.sandboxProtections(settings, support).join('; ')}`).toBe(sentence);
      expect(Sandbox.autoRunWarning(settings, support)).toBe(`Sandbox on — ${sentence}.`);
    }
  });

  it('when the sandbox is on but cannot work, nothing runs: no gaps, and the warning says so', () => {
    expect(Sandbox.sandboxGaps(on, missing)).toEqual([]);
    expect(Sandbox.autoRunWarning(on, missing)).toMatch(/unavailable here \(bubblewrap is not installed\), so nothing will run/);
  });
});
