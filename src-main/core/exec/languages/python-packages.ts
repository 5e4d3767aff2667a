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

/** Installed top-level package names for one interpreter; [] when it cannot be asked. */
export async function listPythonPackages(python: string, probing: Probing, needs?: readonly string[]): Promise<string[]> {
  const answer = await probing.ask(python, ['-I', '-c', LIST_PACKAGES], { fresh: true, ...(needs ? { needs } : {}) });
  if (!answer.ok) return [];
  try {
    const parsed: unknown = JSON.parse(answer.stdout);
    return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === 'string').slice(0, 10_000) : [];
  } catch {
    return [];
  }
}
