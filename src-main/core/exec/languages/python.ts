import { join } from 'node:path';
import { isExecutableNow, which } from './find-runtime';
import { parsePackageList, withPackageList } from './python-packages';
import type { LanguageDefinition, Runtime } from './language';
import { localProbing, type ProbeAnswer, type Probing } from './probing';

const PROBE = 'import sys; print(sys.executable); print("%d.%d.%d" % sys.version_info[:3])';
/** The same, and the interpreter's packages on a third line (python-packages.ts). */
const PROBE_AND_PACKAGES = withPackageList(PROBE);

/**
 * Asks the interpreter for its real executable and version in one go. A version manager's shim
 * (pyenv, asdf) is a script that costs hundreds of milliseconds per start; the real executable it
 * resolves to is the same interpreter without that cost. `-I` (isolated): no current folder on
 * sys.path and no PYTHON* variables, so nothing but the interpreter itself answers. What an
 * interpreter sandboxed code could have written says about itself is not believed: it keeps its own
 * path (and is only ever run inside the sandbox, probing.ts).
 */
async function inspect(command: string, probing: Probing, needs?: readonly string[], withPackages = true): Promise<Runtime | null> {
  const answer = await probing.ask(command, ['-I', '-c', withPackages ? PROBE_AND_PACKAGES : PROBE], needs ? { needs } : {});
  if (!answer.ok) return null;
  const { executable, version, names } = readProbe(answer);
  if (!version || !/^3\.\d+\.\d+$/.test(version)) return null;
  const believed = executable && !(await probing.writable(command)) && !(await probing.writable(executable)) && isExecutableNow(executable);
  return {
    command: believed ? executable : command,
    version,
    // Only an answer of this start says when it came back (a kept one does not: kept-probes.ts).
    ...(names && answer.endedAt !== undefined ? { packages: { names, listedAt: answer.endedAt } } : {}),
  };
}

/** What a probe's answer says, read once per answer: a kept answer comes back at every warm run (probing.ts). */
const readProbes = new WeakMap<ProbeAnswer, { executable?: string; version?: string; names: string[] | null }>();
function readProbe(answer: ProbeAnswer): { executable?: string; version?: string; names: string[] | null } {
  let read = readProbes.get(answer);
  if (!read) {
    const [executable, version, listed] = answer.stdout
      .trim()
      .split('\n')
      .map((l) => l.trim());
    // The listing (thousands of names on some machines) was parsed again at every warm run (issue 37).
    read = { executable, version, names: parsePackageList(listed) };
    readProbes.set(answer, read);
  }
  return read;
}

/** The first interpreter on PATH that answers (python3, then python). */
async function onPath(path: string, probing: Probing, trustedOnly: boolean): Promise<Runtime | null> {
  for (const name of ['python3', 'python']) {
    const found = await which(name, path);
    if (!found || (trustedOnly && (await probing.writable(found)))) continue;
    const runtime = await inspect(found, probing, undefined, !trustedOnly);
    if (runtime) return runtime;
  }
  return null;
}

/** The workspace's own virtual environment's interpreter. */
export function workspaceVenvPython(workspace: string): string {
  return process.platform === 'win32' ? join(workspace, '.venv', 'Scripts', 'python.exe') : join(workspace, '.venv', 'bin', 'python');
}

// The interpreter: the pythonPath setting, else the workspace's own virtual environment (what
// the user would get after activating it), else python3 on PATH.
export const python: LanguageDefinition = {
  name: 'python',
  label: 'Python',
  aliases: ['py', 'python3', 'python', 'ipython'],
  kind: 'runner',
  runtimeLabel: 'python',
  async detect({ settings, workspace, path, probing = localProbing() }) {
    const candidate =
      settings?.pythonPath ?? (workspace && isExecutableNow(workspaceVenvPython(workspace)) ? workspaceVenvPython(workspace) : null);
    if (candidate && (await probing.writable(candidate))) {
      // An interpreter sandboxed code could have written (a workspace .venv) usually links to one
      // installed outside; the sandbox must show that one's folders, found here, not from the link.
      const base = await onPath(path, probing, true);
      const support = base ? [base.command] : [];
      const runtime = await inspect(candidate, probing, support);
      if (runtime) return { ...runtime, support };
      return settings?.pythonPath ? null : base;
    }
    if (candidate) {
      // sys.executable of a venv is the venv's own path (not what it links to), which keeps it the venv.
      const runtime = await inspect(candidate, probing);
      if (runtime || settings?.pythonPath) return runtime;
    }
    return onPath(path, probing, false);
  },
  runner: {
    script: join('runners', 'python', 'oi_runner.py'),
    args: (script) => [script],
    // Its loop reads the channel with one call from its own frame; a cell's own waits are deeper.
    idleMeansCellOver: true,
    rawOutputItself: true,
  },
};
