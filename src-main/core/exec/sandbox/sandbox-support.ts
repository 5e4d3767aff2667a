import { runAppProgram, systemProgram } from '../../programs/app-programs';
import { isExecutable } from '../languages/find-runtime';

// Whether this machine can sandbox sessions, found out once by really starting the tool: bubblewrap
// may be installed yet refused by the kernel (user namespaces off, or restricted by AppArmor as on
// Ubuntu 24.04), and the setting must never claim a protection that is not there.

export type SandboxTool = 'bubblewrap' | 'sandbox-exec';

export type SandboxSupport = { available: true; tool: SandboxTool; path: string } | { available: false; reason: string };

let cached: Promise<SandboxSupport> | null = null;

export function sandboxSupport(): Promise<SandboxSupport> {
  cached ??= detectFor(process.platform);
  return cached;
}

async function detectFor(platform: NodeJS.Platform): Promise<SandboxSupport> {
  if (platform === 'linux') {
    const path = systemProgram('bwrap');
    if (!path) {
      return {
        available: false,
        reason: 'bubblewrap is not installed (install the "bubblewrap" package, e.g. sudo apt install bubblewrap)',
      };
    }
    const probe = await runAppProgram('bwrap', [
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--unshare-pid',
      '--unshare-net',
      '--die-with-parent',
      '--',
      'true',
    ]);
    if (!probe.ok) {
      return {
        available: false,
        reason: `bubblewrap is installed but cannot create a sandbox here: ${probe.stderr.trim() || 'it failed'}`,
      };
    }
    return { available: true, tool: 'bubblewrap', path };
  }
  if (platform === 'darwin') {
    const path = '/usr/bin/sandbox-exec';
    if (!(await isExecutable(path))) return { available: false, reason: 'sandbox-exec is missing from /usr/bin' };
    const probe = await runAppProgram('sandbox-exec', ['-p', '(version 1)(allow default)', '/usr/bin/true']);
    if (!probe.ok) return { available: false, reason: `sandbox-exec refused to start: ${probe.stderr.trim() || 'it failed'}` };
    return { available: true, tool: 'sandbox-exec', path };
  }
  if (platform === 'win32') {
    return { available: false, reason: 'Windows has no sandbox this app can use (bubblewrap is Linux-only, sandbox-exec macOS-only)' };
  }
  return { available: false, reason: `no supported sandbox on ${platform}` };
}
