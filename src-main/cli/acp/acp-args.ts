import { parseCliArgs, UsageError } from '../cli-args';
import type { SettingsPatch } from '@contract';

export interface AcpOptions {
  /** This run's settings on top of the saved ones (--provider, --model, --base-url, --auto-run, --[no-]sandbox). */
  overrides: SettingsPatch;
  help: boolean;
}

/**
 * `oi acp` takes the model and run flags of `oi` (so they are validated the same way); the flags that
 * choose a message or a conversation belong to the client, which sends prompts and picks sessions.
 */
export function parseAcpArgs(argv: string[]): AcpOptions {
  const opts = parseCliArgs(argv);
  const clientOwned = [
    opts.message !== null && '-m',
    opts.prompt !== null && `"${opts.prompt}"`,
    opts.json && '--json',
    opts.continueLast && '--continue',
    opts.conversation !== null && '--conversation',
    opts.notebook !== null && '--notebook',
    opts.list && '--list',
    opts.ownFolder && '--own-folder',
    opts.overrides.workspaceRoot !== undefined && '--workspace',
    opts.version && '--version',
  ].filter(Boolean);
  if (clientOwned.length)
    throw new UsageError(
      `${clientOwned.join(', ')}: not an option of oi acp — the editor sends the messages and chooses the session and its folder. Run \`oi acp --help\`.`,
    );
  if (opts.needsModel) throw new UsageError('--provider needs --model with oi acp (there is no terminal to pick one in)');
  return { overrides: opts.overrides, help: opts.help };
}

export const ACP_HELP = `oi acp — Open Interpreter as an agent for editors, over the Agent Client Protocol (stdio).

Usage (an editor starts it; see docs/acp.md for Zed, JetBrains, Neovim, Emacs and Jupyter AI):
  oi acp [--provider <p> --model <m>] [--base-url <url>] [--auto-run] [--[no-]sandbox]

Options:
      --provider, --model, --base-url   the model for this run (default: the app's settings)
  -y, --auto-run          run the model's code without asking the editor (default: the app's setting)
      --sandbox           run code in the sandbox whatever the app's settings say (docs/sandbox.md)
      --no-sandbox        run code without it (the sandbox is on by default where it works)
  -h, --help              show this help

Each ACP session is one of the app's conversations, working in the session's folder: it is listed
in the desktop app and \`oi --list\` too. Limits, the sandbox and the Python used are the app's settings.`;
