import { existsSync, readFileSync } from 'node:fs';

/** The lines a hook has appended to `file` so far (none before it exists). */
export function logLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}
