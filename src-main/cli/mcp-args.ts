import path from 'node:path';
import { parseArgs } from 'node:util';
import { errorMessage } from '@contract';
import { UsageError } from './cli-args';

// `oi mcp` options. The token may come from the environment (OI_MCP_TOKEN) so it need not appear in
// the process list, as a --token argument would.

export interface McpOptions {
  /** The folder code runs in and files are confined to (default: the current folder). */
  workspace: string;
  autoRun: boolean;
  /** --sandbox / --no-sandbox: run code in the sandbox or not, whatever the saved setting says; null: the setting. */
  sandbox: boolean | null;
  /** --http <port>: Streamable HTTP on 127.0.0.1 instead of stdio (0: any free port). */
  httpPort: number | null;
  /** The bearer token --http requires; null: made at start and printed. */
  token: string | null;
  /** --ask-timeout <seconds>: how long the desktop app's person has to answer a question. */
  askTimeoutMs: number;
  /** --idle-timeout <seconds> (HTTP): an MCP session with no request for this long is ended; 0: never. */
  idleTimeoutMs: number;
  help: boolean;
}

const MIN_TOKEN_CHARS = 16;
/** Under the 60 s most MCP clients wait for a tool call (the SDK's default request timeout). */
export const DEFAULT_ASK_TIMEOUT_S = 50;
const MAX_ASK_TIMEOUT_S = 3600;
/** Long enough for a person to read and think between an agent's calls; clients that go away without DELETE are ended after it. */
export const DEFAULT_IDLE_TIMEOUT_S = 1800;
const MAX_IDLE_TIMEOUT_S = 7 * 24 * 3600;

export function parseMcpArgs(argv: string[], env: NodeJS.ProcessEnv, cwd: string): McpOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      allowPositionals: false,
      options: {
        workspace: { type: 'string' },
        'auto-run': { type: 'boolean', short: 'y' },
        sandbox: { type: 'boolean' },
        'no-sandbox': { type: 'boolean' },
        http: { type: 'string' },
        token: { type: 'string' },
        'ask-timeout': { type: 'string' },
        'idle-timeout': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError(`${errorMessage(err)}\nRun \`oi mcp --help\` for the options.`);
  }
  if (values.sandbox && values['no-sandbox']) throw new UsageError('--sandbox and --no-sandbox contradict each other; give one of them');
  let httpPort: number | null = null;
  if (values.http !== undefined) {
    httpPort = /^\d+$/.test(values.http) ? Number(values.http) : NaN;
    if (!Number.isInteger(httpPort) || httpPort > 65535) throw new UsageError(`--http needs a port number (0–65535); got "${values.http}"`);
  }
  const token = values.token ?? (env.OI_MCP_TOKEN || null);
  if (token !== null && httpPort === null) throw new UsageError('--token (or OI_MCP_TOKEN) is for --http; stdio needs none');
  if (token !== null && (token.length < MIN_TOKEN_CHARS || /\s/.test(token)))
    throw new UsageError(`the token must be at least ${MIN_TOKEN_CHARS} characters without spaces`);
  const askTimeout = values['ask-timeout'] ?? String(DEFAULT_ASK_TIMEOUT_S);
  const askTimeoutS = /^\d+$/.test(askTimeout) ? Number(askTimeout) : NaN;
  if (!(askTimeoutS >= 1 && askTimeoutS <= MAX_ASK_TIMEOUT_S))
    throw new UsageError(`--ask-timeout needs a number of seconds (1–${MAX_ASK_TIMEOUT_S}); got "${askTimeout}"`);
  const idle = values['idle-timeout'];
  if (idle !== undefined && httpPort === null)
    throw new UsageError('--idle-timeout is for --http; a stdio session ends when its client closes the pipe');
  const idleS = idle === undefined ? DEFAULT_IDLE_TIMEOUT_S : /^\d+$/.test(idle) ? Number(idle) : NaN;
  if (!(idleS >= 0 && idleS <= MAX_IDLE_TIMEOUT_S))
    throw new UsageError(`--idle-timeout needs a number of seconds (0 for never, at most ${MAX_IDLE_TIMEOUT_S}); got "${idle}"`);
  return {
    workspace: path.resolve(cwd, values.workspace ?? '.'),
    autoRun: values['auto-run'] ?? false,
    sandbox: values.sandbox ? true : values['no-sandbox'] ? false : null,
    httpPort,
    token,
    askTimeoutMs: askTimeoutS * 1000,
    idleTimeoutMs: idleS * 1000,
    help: values.help ?? false,
  };
}

export const MCP_HELP = `oi mcp — serve Open Interpreter's sessions to other agents over the Model Context Protocol.

Usage:
  oi mcp [--workspace <dir>] [--auto-run] [--[no-]sandbox]        stdio (how MCP clients start servers)
  oi mcp --http <port> [--token <t>] [--workspace <dir>] [...]    Streamable HTTP on 127.0.0.1:<port>/mcp

Options:
      --workspace <dir>   the folder code runs in and files are confined to (default: the current folder)
  -y, --auto-run          allow execute and write_file for every client; without it the desktop app is
                          asked when it runs, else they are refused (reading is always allowed)
      --ask-timeout <s>   how long the desktop app's person has to answer (default ${DEFAULT_ASK_TIMEOUT_S})
      --sandbox           run code in the sandbox whatever the app's settings say (docs/sandbox.md)
      --no-sandbox        run code without it (the sandbox is on by default where it works)
      --http <port>       serve over HTTP on 127.0.0.1 instead of stdio (0 picks a free port)
      --token <token>     the bearer token HTTP clients must send (or OI_MCP_TOKEN); default: a new one,
                          printed on standard error at start
      --idle-timeout <s>  end an HTTP client's MCP session (and stop its language sessions) after this
                          long without a request or open stream (default ${DEFAULT_IDLE_TIMEOUT_S}; 0: never)
  -h, --help              show this help

Tools: execute, list_sessions, interrupt, restart_session, list_files, read_file, write_file,
export_notebook. Limits, the sandbox and the Python used are the app's settings. See docs/mcp.md.`;
