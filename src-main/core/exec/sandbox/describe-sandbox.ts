import { homedir } from 'node:os';
import type { SandboxSettings } from '@contract';
import { isSealedEntry, parseExtraPath } from './sandbox-plan';
import type { SandboxSupport } from './sandbox-support';

// The sentence shown with every run (RunLimits.sandbox) and in the top bar. It lists exactly the
// protections in force, per platform, and never more: when the tool is missing, it says the
// sandbox was requested and runs are refused.

export function describeSandbox(
  settings: (SandboxSettings & { workspaceReadOnly?: boolean }) | undefined,
  support: SandboxSupport,
  home = homedir(),
): string | null {
  if (!settings?.enabled) return null;
  if (!support.available) return `requested but unavailable, so nothing runs: ${support.reason}`;
  const network = settings.allowNetwork ? 'network allowed' : 'network off';
  const parts =
    support.tool === 'bubblewrap'
      ? [
          'bubblewrap',
          'system files read-only',
          settings.workspaceReadOnly
            ? 'workspace read-only (plan mode); writable: a private /tmp'
            : 'writable: the workspace and a private /tmp',
          'home folders hidden',
          'sockets in /run hidden',
          network,
          'own process namespace (cannot see or signal other processes)',
          'stops when the app stops',
        ]
      : [
          'sandbox-exec',
          settings.workspaceReadOnly
            ? 'workspace read-only (plan mode); writable: a private temp folder'
            : 'writable: the workspace and a private temp folder',
          'home folders unreadable',
          network,
          'no process isolation (macOS cannot provide it)',
        ];
  const sealed = settings.extraPaths.filter(isSealedEntry).map((entry) => shortHome(parseExtraPath(entry, home).path, home));
  const extras = settings.extraPaths
    .filter((entry) => !isSealedEntry(entry))
    .map((entry) => {
      const extra = parseExtraPath(entry, home);
      return `${shortHome(extra.path, home)} (${extra.writable ? 'read-write' : 'read-only'})`;
    });
  if (extras.length > 0) parts.push(`also visible: ${extras.join(', ')}`);
  // Even inside the workspace or a read-write path: the app's data folder (its hooks run outside).
  if (sealed.length > 0) parts.push(`never writable: ${sealed.join(', ')}`);
  return `${parts[0]}: ${parts.slice(1).join('; ')}`;
}

function shortHome(path: string, home: string): string {
  return home && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
}
