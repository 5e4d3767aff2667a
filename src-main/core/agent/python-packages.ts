import { execFile } from 'node:child_process';

// The import names of installed Python packages ("PIL", "cv2", "numpy"), which is what the model
// writes in code. Distributions without top_level.txt (most modern wheels) give their normalized name.
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
export function listPythonPackages(python: string, timeoutMs = 15_000): Promise<string[]> {
  return new Promise((resolve) => {
    execFile(python, ['-c', LIST_PACKAGES], { timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024 }, (err, stdout) => {
      if (err) return resolve([]);
      try {
        const parsed: unknown = JSON.parse(stdout);
        resolve(Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === 'string') : []);
      } catch {
        resolve([]);
      }
    });
  });
}

/** True when code likely changed what is installed (pip, uv, conda, poetry; also system package managers). */
export function installsPackages(code: string): boolean {
  return /\b(pip3?|uv|poetry|conda|mamba|micromamba|pipx)\b[^\n]*\b(install|add|uninstall|remove)\b/.test(code);
}

/** True when code may have installed or removed a language runtime. */
export function installsRuntimes(code: string): boolean {
  if (/-m\s+venv\b|\bvirtualenv\b|\buv\s+venv\b/.test(code)) return true;
  return /\b(apt(-get)?|brew|dnf|yum|pacman|apk|winget|choco|scoop|nvm|pyenv|asdf|mise|rbenv)\b[^\n]*\b(install|add|remove|uninstall|use|global)\b/.test(code);
}
