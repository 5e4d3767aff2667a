import { dirname } from 'node:path';
import { exposedSealed, type SandboxPlan } from './sandbox-plan';
import { isInside } from './writable-zones';

// The plan as a macOS sandbox-exec (Seatbelt) profile. Seatbelt cannot remount folders, so the same
// rules are written as permissions: writes allowed only below the workspace and the private folder,
// reads of the hidden folders denied except for the paths the session needs, network denied except
// the session's own side-channel socket. In a profile, a later rule overrides an earlier one, so
// each `allow` below narrows the `deny` before it.
//
// Paths must be real paths (/private/var/…, not /var/…): Seatbelt matches after symlinks resolve.

export function seatbeltProfile(plan: SandboxPlan, readable: string[]): string {
  const lines = ['(version 1)', '(allow default)'];
  const writable = [
    ...(plan.workspaceReadOnly ? [] : [plan.workspace]),
    plan.privateDir,
    ...plan.extra.filter((e) => e.writable).map((e) => e.path),
  ];
  lines.push('(deny file-write*)');
  lines.push(
    `(allow file-write* ${writable.map(subpath).join(' ')} (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (regex #"^/dev/tty") (regex #"^/dev/fd/"))`,
  );
  // The sealed folders a writable path contains (the data folder inside the workspace): writes
  // denied after the allows, since the later rule wins; a workspace or private folder inside one is
  // allowed again after that.
  const sealed = exposedSealed(plan);
  if (sealed.length > 0) {
    lines.push(`(deny file-write* ${sealed.map(subpath).join(' ')})`);
    const within = [plan.workspace, plan.privateDir].filter((p) => sealed.some((s) => isInside(p, s) && p !== s));
    if (within.length > 0) lines.push(`(allow file-write* ${within.map(subpath).join(' ')})`);
  }
  if (plan.hidden.length > 0) {
    lines.push(`(deny file-read* ${plan.hidden.map(subpath).join(' ')})`);
    const visible = [plan.workspace, plan.privateDir, ...readable, ...plan.extra.map((e) => e.path)];
    lines.push(`(allow file-read* ${visible.map(subpath).join(' ')})`);
    // The folders above a visible path stay stat-able, or getcwd() and realpath() fail inside it.
    const ancestors = new Set<string>();
    for (const path of visible) for (let p = dirname(path); p !== dirname(p); p = dirname(p)) ancestors.add(p);
    if (ancestors.size > 0) lines.push(`(allow file-read-metadata ${[...ancestors].map(literal).join(' ')})`);
  }
  if (!plan.network) {
    lines.push('(deny network*)');
    lines.push(`(allow network* (remote unix-socket (path-regex #"^${regexEscape(plan.privateDir)}/")))`);
  }
  return `${lines.join('\n')}\n`;
}

function quote(path: string): string {
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function subpath(path: string): string {
  return `(subpath ${quote(path)})`;
}

function literal(path: string): string {
  return `(literal ${quote(path)})`;
}

function regexEscape(path: string): string {
  return path.replace(/[.*+?^${}()|[\]\\"]/g, '\\$&');
}
