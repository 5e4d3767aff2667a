import { randomBytes } from 'node:crypto';
import { mkdir, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorMessage } from '@contract';
import { defaultAppDataDir } from '../core/app-data-dir';
import { localRequests } from '../core/bridge/local-requests';
import { disposeBeforeExit } from '../core/dispose-before-exit';
import { Sandbox } from '../core/exec';
import { askDesktopApp } from '../core/mcp-approval/ask-desktop';
import { ClientPolicies } from '../core/mcp-approval/client-policies';
import type { ApprovalPolicy } from '../core/mcp-server/approval-policy';
import type { McpServeDeps } from '../core/mcp-server/build-server';
import { ServeSession } from '../core/mcp-server/serve-session';
import { startApp } from '../core/start-app';
import { checkWorkspaceFolder } from '../core/workspace/workspace-folder';
import { UsageError } from './cli-args';
import { openSecrets } from './open-cli-secrets';
import { MCP_HELP, parseMcpArgs, type McpOptions } from './mcp-args';
import { OverlaySettingsStore } from './overlay-settings-store';

// `oi mcp`: the app's core (createApp: settings, keychain, the engine with its limits, sandbox and
// key stripping) served as MCP tools. Only the JSON-RPC stream goes to stdout; everything a person
// reads goes to stderr.

const say = (line: string) => process.stderr.write(`oi mcp: ${line}\n`);

export async function runMcp(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let opts: McpOptions;
  try {
    opts = parseMcpArgs(argv, env, process.cwd());
  } catch (err) {
    if (err instanceof UsageError) return (say(err.message), 2);
    throw err;
  }
  if (opts.help) return (process.stdout.write(`${MCP_HELP}\n`), 0);
  // The token is ours, not the code's: runs inherit this process's environment.
  delete process.env.OI_MCP_TOKEN;
  // A library writing to stdout would corrupt the JSON-RPC stream of a stdio client.
  console.log = console.info = console.error;

  const dataDir = defaultAppDataDir();
  let workspace: string;
  try {
    await mkdir(opts.workspace, { recursive: true }).catch(() => undefined);
    workspace = await realpath(await checkWorkspaceFolder(opts.workspace, { dataDir }));
  } catch (err) {
    return (say(errorMessage(err)), 2);
  }
  const { app, settings, version, notices } = await startApp({
    dataDir,
    openSecrets: () => openSecrets(env),
    settings: (saved) => new OverlaySettingsStore(saved, opts.sandbox === null ? {} : { sandbox: { enabled: opts.sandbox, chosen: true } }),
    app: { env },
  });
  for (const notice of notices) say(notice);
  // Where sandboxed code can write: an endpoint file there is not followed (endpoint-file.ts).
  const zones = () => {
    const now = settings.get();
    const extra = now.sandbox.extraPaths.map((entry) => Sandbox.parseExtraPath(entry, os.homedir())).filter((e) => e.writable);
    const roots = [workspace, path.join(dataDir, 'workspaces'), ...(now.workspaceRoot ? [now.workspaceRoot] : [])];
    return Sandbox.writableZones([...roots, ...extra.map((e) => e.path)]);
  };
  const clients = new ClientPolicies(dataDir);
  const policy: ApprovalPolicy = {
    autoRun: opts.autoRun,
    clientPolicy: (client) => clients.of(client),
    ask: (question, signal) => askDesktopApp({ dataDir, zones, timeoutMs: opts.askTimeoutMs }, question, signal),
  };
  const deps: McpServeDeps = {
    exec: app.context.exec,
    conversations: app.context.conversations,
    events: app.context.events,
    settings: () => settings.get(),
    workspace,
    version,
    resourcesDir: app.context.resourcesDir,
    policy,
    hooks: { hooks: app.context.hooks, events: app.context.events },
  };
  // What the person's hooks did (a refusal, a hook that hung) is for the person who started the server.
  app.context.events.subscribe((event) => {
    if (event.name === 'notice') say(event.payload.item.text);
  });

  // The stdio client's Python session starts now, while the MCP SDK's server (its zod schemas, ajv)
  // loads and the client shakes hands, not at its first execute (docs/mcp.md#start-up). The SDK loads
  // once Python's process is started (or its start is over): loading it is main-thread work, which
  // would otherwise hold up every step of the start before the spawn, the longest path to the first
  // result. The HTTP server's modules load only with --http.
  const session = opts.httpPort === null ? new ServeSession({ ...deps, syncOnCaller: true }) : null;
  if (session) {
    let spawned: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (spawned = resolve));
    await Promise.race([started, session.prepare('python', spawned)]);
  }
  if (opts.autoRun) {
    const sandbox = await localRequests(app.handlers)('sandbox.status', {});
    // The desktop app's own sentence about an unsandboxed auto-run, said of the clients here.
    if (!sandbox.enabled) say(`--auto-run: MCP clients' code runs without asking. ${sandbox.autoRunWarning}`);
  } else say('execute and write_file ask the desktop app when it runs (and are refused when it does not), unless started with --auto-run');
  let close: () => Promise<void>;
  let closed: Promise<void>;
  if (opts.httpPort === null) {
    const { serveStdio } = await import('../core/mcp-server/stdio-serve');
    const stdio = await serveStdio(deps, session ?? undefined);
    close = stdio.close;
    closed = stdio.closed;
  } else {
    const token = opts.token ?? randomBytes(32).toString('base64url');
    let http;
    try {
      const idleS = opts.idleTimeoutMs / 1000;
      const { serveHttp } = await import('../core/mcp-server/http-serve');
      http = await serveHttp(deps, {
        port: opts.httpPort,
        token,
        idleTimeoutMs: opts.idleTimeoutMs,
        // The name is the client's text: quoted as JSON, so no control character reaches the terminal.
        onIdleEnd: (name) =>
          say(`ended the MCP session of ${JSON.stringify(name)} and its language sessions: idle for ${idleS} s (--idle-timeout)`),
      });
    } catch (err) {
      await disposeBeforeExit(app, say);
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'EADDRINUSE' ? 'the port is in use' : code === 'EACCES' ? 'not allowed to use that port' : errorMessage(err);
      return (say(`cannot listen on 127.0.0.1:${opts.httpPort}: ${why}`), 2);
    }
    close = http.close;
    closed = new Promise(() => undefined);
    say(`listening on http://127.0.0.1:${http.port}/mcp (Streamable HTTP), code runs in ${workspace}`);
    if (opts.token === null) say(`token: ${token}   (clients send "Authorization: Bearer <token>")`);
  }
  const stop = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await Promise.race([closed, stop]);
  await close().catch(() => undefined);
  await disposeBeforeExit(app, say);
  return 0;
}
