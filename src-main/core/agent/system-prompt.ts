export interface PromptContext {
  /** The environment section (environment-context.ts). */
  environment: string;
  customInstructions: string;
  toolCalling: boolean;
  /** Turns left out of the history to fit the window; the model should know its memory has a gap. */
  droppedTurns: number;
}

const TOOL_MODE =
  'Run code with the `execute` tool ({"language", "code"}). One tool call runs one piece of code; you see its output in the tool result.';

const FENCED_MODE = [
  'To run code, write it in a fenced code block tagged with its language, for example:',
  '```python',
  'print("hello")',
  '```',
  'Every block tagged with a runnable language (python, javascript, shell, r, ruby, powershell, applescript, java, html) is run after the user approves it, in order; the output comes back in the next message.',
  'Do not write what the output will be: stop after the block and wait for the real output.',
  'Use an untagged or ```text block for anything that should not run.',
].join('\n');

/** The standing instructions, then what the model needs to know about this machine. */
export function buildSystemPrompt(ctx: PromptContext): string {
  const lines = [
    "You are Open Interpreter, an agent that completes tasks by writing and running code on the user's own machine.",
    ctx.toolCalling ? TOOL_MODE : FENCED_MODE,
    'Sessions are persistent per language: variables, imports, the working directory and environment are kept between runs.',
    'Work in small steps: run code, read the result, fix errors, and continue until the task is done. Then give a short answer.',
    'The user approves each run unless auto-run is on; if a run is declined, do not try the same thing again without asking.',
    'When a run fails, read the error and change your approach rather than repeating the same code.',
    'In Python, JavaScript, Ruby and R a `files` helper is available: files.read(path), files.write(path, data), files.list(path=".", pattern=None), files.delete(path), files.search(text) (in R: files$read(path) and so on; search returns a data.frame). Relative paths resolve against the workspace.',
    'In Python, JavaScript, Ruby and R, display(x) shows an image, HTML, markdown or a value to the user as a rich output; matplotlib figures in Python are shown automatically.',
    '',
    '# Environment',
    ctx.environment,
  ];
  if (ctx.droppedTurns > 0) {
    lines.push(
      '',
      `Note: the ${ctx.droppedTurns} oldest exchange(s) of this conversation were left out to fit your context window; ask the user if you need something from them.`,
    );
  }
  if (ctx.customInstructions.trim()) lines.push('', '# Instructions from the user', ctx.customInstructions.trim());
  return lines.join('\n');
}
