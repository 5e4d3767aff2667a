import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const EXTENSIONS: Record<string, string> = {
  python: '.py',
  javascript: '.js',
  shell: '.sh',
  powershell: '.ps1',
  r: '.R',
  ruby: '.rb',
  applescript: '.applescript',
  java: '.java',
  html: '.html',
};

/** The user's editor command ($VISUAL, then $EDITOR), or null when none is set. */
export function editorCommand(env: NodeJS.ProcessEnv): string | null {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || null;
}

/**
 * Opens the code in the user's editor and returns what they saved. The file carries the language's
 * extension so the editor highlights it. Returns null when the editor failed (nothing changes then).
 */
export function editInEditor(
  editor: string,
  code: string,
  language: string,
  terminal: { input: number; output: number } = { input: 0, output: 1 },
): { code: string } | { error: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-edit-'));
  const file = path.join(dir, `cell${EXTENSIONS[language] ?? '.txt'}`);
  try {
    writeFileSync(file, code.endsWith('\n') ? code : `${code}\n`, { mode: 0o600 });
    // Through a shell, as git does, so EDITOR="code --wait" works; on the person's terminal, which is
    // not standard input when that is a pipe (`git diff | oi "review this"`).
    const result = spawnSync(`${editor} ${JSON.stringify(file)}`, { shell: true, stdio: [terminal.input, terminal.output, 'inherit'] });
    if (result.error) return { error: `could not start the editor "${editor}": ${result.error.message}` };
    if (result.status !== 0) return { error: `the editor "${editor}" exited with code ${result.status}; the code was not changed` };
    return { code: readFileSync(file, 'utf8').replace(/\n$/, '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
