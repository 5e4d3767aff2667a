import { Readable, Writable } from 'node:stream';
import { agent, ndJsonStream } from '@agentclientprotocol/sdk';
import { config as zodConfig } from 'zod/v4/core';
import { errorMessage } from '@contract';
import { disposeBeforeExit } from '../../core/dispose-before-exit';
import { startApp } from '../../core/start-app';
import { warnUnsandboxedAutoRun } from '../auto-run-warning';
import { UsageError } from '../cli-args';
import { openSecrets } from '../open-cli-secrets';
import { OverlaySettingsStore } from '../overlay-settings-store';
import { ACP_HELP, parseAcpArgs, type AcpOptions } from './acp-args';
import { AcpAgent } from './acp-agent';
import { clientMcpServers } from './acp-mcp';

// `oi acp`: the agent served to an editor over the Agent Client Protocol on stdio (docs/acp.md). The
// same core as `oi -m` (startApp: settings, keychain, the engine with its limits and sandbox); only
// the protocol's newline-delimited JSON goes to stdout, everything a person reads goes to stderr.

const say = (line: string) => process.stderr.write(`oi acp: ${line}\n`);

export async function runAcp(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  // As in `oi -m` (cli-run.ts): zod's JIT compiles a fast path per object schema, and the SDK checks
  // each message against schemas of the whole protocol — compiled, they cost more than a session's
  // few hundred messages save (bench/acp.bench.ts).
  zodConfig({ jitless: true });
  let opts: AcpOptions;
  try {
    opts = parseAcpArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) return (say(err.message), 2);
    throw err;
  }
  if (opts.help) return (process.stdout.write(`${ACP_HELP}\n`), 0);
  // A library writing to stdout would corrupt the protocol's stream.
  console.log = console.info = console.error;

  const { app, settings, version, notices } = await startApp({
    openSecrets: () => openSecrets(env),
    // Nobody is at the code's terminal: a program asking for input gets end-of-input, as in `oi -m`.
    settings: (saved) => new OverlaySettingsStore(saved, { ...opts.overrides, exec: { ...opts.overrides.exec, inputRequests: 'end' } }),
    app: { env },
  });
  for (const notice of notices) say(notice);
  if (settings.get().autoRun) await warnUnsandboxedAutoRun(app, say);

  const acp = new AcpAgent({
    app,
    settings: () => settings.get(),
    version,
    addMcpServers: (servers) => {
      const configured = settings.get().mcpServers;
      const { add, kept } = clientMcpServers(servers, configured);
      for (const name of kept) say(`the editor's MCP server "${name}" has the name of one in the app's settings: that one is used`);
      if (Object.keys(add).length) settings.override({ mcpServers: { ...configured, ...add } });
    },
  });
  const stream = ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = acp.register(agent({ name: 'oi acp' })).connect(stream);
  const stop = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  // The client closing our stdin ends the connection: the sessions' code is stopped and oi exits.
  await Promise.race([connection.closed, stop]);
  connection.close();
  await acp.close().catch((err: unknown) => say(errorMessage(err)));
  await disposeBeforeExit(app, say);
  return 0;
}
