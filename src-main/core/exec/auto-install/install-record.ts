// What an automatic install did, for the conversation's history and for notebook exports (where it
// becomes the cell a person would have written to get the same environment).

export interface InstallRecord {
  manager: 'pip' | 'npm' | 'apt' | 'dnf' | 'pacman' | 'brew' | 'winget';
  packages: string[];
  /** The command that ran, as a person would type it. */
  command: string;
  /** Where the packages went: the interpreter for pip, the workspace for npm; null for system packages. */
  target: string | null;
  /** A virtual environment this install created (PEP 668), the session now runs in it. */
  createdVenv: string | null;
  ok: boolean;
  at: string;
}

/** The notebook cell that reproduces the install: `%pip install …` in Python notebooks, a shell escape otherwise. */
export function notebookSource(record: InstallRecord): string {
  const packages = record.packages.join(' ');
  if (record.manager === 'pip') return `%pip install ${packages}`;
  if (record.manager === 'npm') return `!npm install ${packages}`;
  return `!${record.command}`;
}
