/** True when code likely changed what is installed (pip, uv, conda, poetry; also system package managers). */
export function installsPackages(code: string): boolean {
  return /\b(pip3?|uv|poetry|conda|mamba|micromamba|pipx)\b[^\n]*\b(install|add|uninstall|remove)\b/.test(code);
}

/** True when code may have installed or removed a language runtime. */
export function installsRuntimes(code: string): boolean {
  if (/-m\s+venv\b|\bvirtualenv\b|\buv\s+venv\b/.test(code)) return true;
  return /\b(apt(-get)?|brew|dnf|yum|pacman|apk|winget|choco|scoop|nvm|pyenv|asdf|mise|rbenv)\b[^\n]*\b(install|add|remove|uninstall|use|global)\b/.test(
    code,
  );
}
