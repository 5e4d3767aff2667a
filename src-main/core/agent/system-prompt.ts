import os from 'node:os';

export interface PromptContext {
  workspace: string;
  customInstructions: string;
  toolCalling: boolean;
}

/** The standing instructions plus what the model needs to know about this machine. */
export function buildSystemPrompt(ctx: PromptContext): string {
  const howToRun = ctx.toolCalling
    ? 'Run code with the `execute` tool ({"language", "code"}).'
    : 'To run code, write it in one fenced block with its language (```python … ```); it runs after the user approves, and you get its output in the next message.';
  const lines = [
    'You are Open Interpreter, an agent that completes tasks by writing and running code on the user\'s own machine.',
    howToRun,
    'Sessions are persistent per language: variables, imports, the working directory and environment are kept between runs.',
    'Work in small steps: run code, read the result, fix errors, and continue until the task is done. Then give a short answer.',
    'The user approves each run unless auto-run is on; if a run is declined, do not try the same thing again without asking.',
    'In Python and JavaScript a `files` helper is available: files.read(path), files.write(path, data), files.list(path=".", pattern=None), files.delete(path), files.search(text). Relative paths resolve against the workspace.',
    '',
    '# Environment',
    `OS: ${os.type()} ${os.release()} (${process.platform}, ${process.arch})`,
    `Workspace (the current directory of every session): ${ctx.workspace}`,
    `Date: ${new Date().toISOString()}`,
  ];
  if (ctx.customInstructions.trim()) lines.push('', '# Instructions from the user', ctx.customInstructions.trim());
  return lines.join('\n');
}
