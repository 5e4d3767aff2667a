import { spawn } from 'node:child_process';
import type { PromptLine } from './terminal/prompt-line';
import type { Style } from './terminal-style';

/**
 * `!ls -la` or `%% ls -la` at the prompt: the command, run by the person's own shell in the
 * conversation's folder, as classic Open Interpreter and IPython users expect. Returns the command,
 * or null when the line is not one.
 */
export function shellLine(text: string): string | null {
  const m = /^(?:!|%%)\s*([\s\S]*)$/.exec(text.trim());
  if (!m) return null;
  return m[1]?.trim() ?? '';
}

export interface ShellLineDeps {
  prompt: PromptLine;
  cwd: string;
  env: NodeJS.ProcessEnv;
  style: Style;
}

/**
 * Runs it with the terminal handed over (so `!vim` or `!top` work), not through the agent: the model
 * does not see it. Ctrl-C goes to the command, not to us.
 */
export async function runShellLine(command: string, deps: ShellLineDeps): Promise<void> {
  const { prompt, style } = deps;
  if (!command) return prompt.line(style.dim('Name a command after ! (for example !ls -la).'));
  prompt.suspend();
  // In cooked mode the terminal sends Ctrl-C to the whole foreground group, us included.
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  try {
    const code = await new Promise<number | string>((resolve) => {
      const child = spawn(command, { shell: deps.env.SHELL || true, cwd: deps.cwd, env: deps.env, stdio: 'inherit' });
      child.on('error', (err) => resolve(err.message));
      child.on('exit', (status, signal) => resolve(signal ?? status ?? 0));
    });
    prompt.resume();
    if (typeof code === 'string' && !/^SIG/.test(code)) prompt.line(style.red(`could not run it: ${code}`));
    else if (code !== 0) prompt.line(style.dim(`(exit ${code})`));
  } finally {
    process.off('SIGINT', ignore);
  }
}
