import type { Probing } from './probing';

// The import names of installed Python packages ("PIL", "cv2", "numpy"), which is what the model
// writes in code. Distributions without top_level.txt (most modern wheels) give their normalized name.
// Asked through the route's Probing: a workspace .venv's interpreter, and the .pth files and
// packages in its site-packages that run when it starts, run only inside the sandbox when it is on.
const LIST_PACKAGES = `
import importlib.metadata as m, json
names = set()
for d in m.distributions():
    try:
        top = (d.read_text('top_level.txt') or '').split()
    except Exception:
        top = []
    if not top:
        name = (d.metadata['Name'] or '').lower().replace('-', '_').replace('.', '_')
        top = [name] if name else []
    names.update(n for n in top if n and not n.startswith('_') and '/' not in n)
print(json.dumps(sorted(names, key=str.lower)))
`;

/**
 * The listing appended to another probe of the same interpreter (python.ts asks its version with it):
 * one line of JSON after what that probe printed, or none when listing fails, which never fails the
 * probe. A cold detection then starts the interpreter once, not once for its version and again for
 * its packages (through a pyenv shim, each start is a dozen bash scripts first).
 */
export function withPackageList(script: string): string {
  return `${script}\nimport sys\nsys.stdout.flush()\ntry:\n    exec(${JSON.stringify(LIST_PACKAGES)})\nexcept Exception:\n    pass\n`;
}

/** The import names in one line of the listing's JSON, or null when it is not one. */
export function parsePackageList(line: string | undefined): string[] | null {
  if (!line) return null;
  try {
    const parsed: unknown = JSON.parse(line);
    return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === 'string').slice(0, 10_000) : null;
  } catch {
    return null;
  }
}

/** Installed top-level package names for one interpreter; [] when it cannot be asked. */
export async function listPythonPackages(python: string, probing: Probing, needs?: readonly string[]): Promise<string[]> {
  const answer = await probing.ask(python, ['-I', '-c', LIST_PACKAGES], { fresh: true, ...(needs ? { needs } : {}) });
  if (!answer.ok) return [];
  return parsePackageList(answer.stdout.trim()) ?? [];
}
