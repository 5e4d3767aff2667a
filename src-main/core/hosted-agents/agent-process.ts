import os from 'node:os';
import { isAbsolute } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { ndJsonStream, type Stream } from '@agentclientprotocol/sdk';
import type { SandboxSettings } from '@contract';
import { Sandbox, Processes } from '../exec';
import { killGroup, personPath, startPersonCommand, systemProgram } from '../programs/app-programs';
import { agentEndpoints, agentNetworkPolicy, agentProxyBypass } from './agent-network';

// An outside ACP agent's own process (docs/acp.md#hosting): the command line the person set up in
// Settings → Agents, started through the app's launcher (app-programs.ts) in a process group of its
// own, inside the conversation's sandbox when the sandbox is on, where its network is its provider
// alone, through the app's proxy (agent-network.ts). Its stdin and stdout carry the protocol; its
// stderr is kept (bounded) to say why it stopped.

export interface AgentCommand {
  /** The agent's name in Settings → Agents (said in the proxy's refusals). */
  name: string;
  command: string;
  args: string[];
  /** Variables the person set for this agent (its provider's key, its base URL): given to it alone. */
  env: Record<string, string>;
  /** The provider whose stored key it is given: that provider's API host is its network too. */
  key: 'anthropic' | 'openai' | null;
}

export interface AgentProcessOptions {
  workspace: string;
  /** The sandbox cells get (app.ts); `enabled: false` runs the agent as the person. */
  sandbox: SandboxSettings;
  /** The keys the app knows, kept out of the agent's environment unless the person set them for it. */
  secretValues: readonly string[];
  env?: NodeJS.ProcessEnv;
  tmpRoot?: string;
  support?: () => Promise<Sandbox.SandboxSupport>;
  /** The app's resources (the network relay started inside the sandbox before the agent). */
  resourcesDir: string;
}

export interface AgentProcess {
  stream: Stream;
  pid: number;
  sandboxed: boolean;
  /** Its network: all of it (no sandbox, or the sandbox's network allowed), or its provider through the proxy. */
  network: 'open' | 'none' | 'proxy';
  /** The last 8 KB the agent wrote to stderr. */
  stderr(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

const STDERR_KEEP = 8 * 1024;

/**
 * Starts the agent. A bare command name is looked up as a hook's is (personPath: system folders and
 * absolute PATH entries outside the home and temp folders), so a program planted in a workspace's
 * `.venv/bin` is never what starts.
 */
export async function startAgentProcess(agent: AgentCommand, opts: AgentProcessOptions): Promise<AgentProcess> {
  const base = opts.env ?? process.env;
  const path = personPath(base.PATH ?? '');
  const file = isAbsolute(agent.command) ? agent.command : systemProgram(agent.command, path);
  if (!file) throw new Error(`the agent's command "${agent.command}" was not found in the system's folders or on PATH (${path})`);
  // Sandboxed, the home is hidden and read-only: agents keep their settings and sessions in it (Claude
  // Code's ~/.claude, Gemini's ~/.gemini) and will not start without it, so theirs is the private /tmp,
  // kept while the process runs, unless the person named one.
  const home: Record<string, string> = opts.sandbox.enabled ? { HOME: '/tmp' } : {};
  const env: Record<string, string> = { ...Processes.withoutKeys(base, opts.secretValues), PATH: path, ...home, ...agent.env };
  let line = { file, args: agent.args };
  let cwd = opts.workspace;
  let dispose = (): Promise<void> => Promise.resolve();
  let network: AgentProcess['network'] = 'open';
  if (opts.sandbox.enabled) {
    const support = await (opts.support ?? Sandbox.sandboxSupport)();
    if (!support.available) throw new Error(`the sandbox is on but cannot start here (${support.reason}), and hosted agents run inside it`);
    // The agent talks to its provider itself, through the proxy, which lets nothing else through; with
    // the sandbox's network allowed (the person's choice for cells too) it has all of it, unfiltered.
    const endpoints = agentEndpoints(agent);
    const allowed = opts.sandbox.allowedHosts;
    const once = await Sandbox.oneOffSandbox(
      {
        support,
        settings: opts.sandbox,
        workspace: opts.workspace,
        tmpRoot: opts.tmpRoot ?? os.tmpdir(),
        // sandbox-exec has no proxy wired yet (docs/sandbox.md): there the agent keeps the whole network.
        ...(support.tool === 'bubblewrap' ? {} : { network: true }),
        proxy: {
          policy: agentNetworkPolicy(agent.name, endpoints, () => allowed),
          resourcesDir: opts.resourcesDir,
          bypass: agentProxyBypass(endpoints),
        },
        ...(base.HOME ? { home: base.HOME } : {}),
      },
      line,
    );
    line = once.command;
    cwd = once.cwd;
    dispose = once.dispose;
    network = once.network;
  }
  const child = startPersonCommand(line, { cwd, env });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
  });
  // An agent that dies mid-write closes the pipe: the connection ends, not the app.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', (err) => {
      stderr += `\n${err.message}`;
      resolve(null);
    });
    child.once('exit', (code) => resolve(code));
  });
  void exited.then(dispose);
  return {
    stream: ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
    pid: child.pid ?? -1,
    sandboxed: opts.sandbox.enabled,
    network,
    stderr: () => stderr,
    exited,
    async stop() {
      child.stdin.end();
      killGroup(child);
      await exited;
    },
  };
}
