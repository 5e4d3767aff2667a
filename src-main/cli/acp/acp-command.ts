import { Readable, Writable } from 'node:stream';
import { agent, ndJsonStream } from '@agentclientprotocol/sdk';
import { config as zodConfig } from 'zod/v4/core';
import { errorMessage } from '@contract';
import { appVersion } from '../../core/app-version';
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

/** An editor sends initialize as it spawns the agent; one that has not by then waits for the app no longer. */
const START_AT_LATEST_MS = 50;

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

  // The editor's initialize is answered before the app starts (it needs nothing of the app): that round
  // trip and the editor's next request overlap the start instead of following it (docs/acp.md#speed).
  // The app starts once that answer is written (AcpAgent), at the first other request, or, for an editor
  // slow to send initialize, after START_AT_LATEST_MS.
  let begin: () => void = () => undefined;
  const starting = new Promise<void>((resolve) => (begin = resolve))
    .then(() =>
      startApp({
        openSecrets: () => openSecrets(env),
        // Nobody is at the code's terminal: a program asking for input gets end-of-input, as in `oi -m`.
        settings: (saved) => new OverlaySettingsStore(saved, { ...opts.overrides, exec: { ...opts.overrides.exec, inputRequests: 'end' } }),
        app: { env },
      }),
    )
    .then(async (started) => {
      for (const notice of started.notices) say(notice);
      if (started.settings.get().autoRun) await warnUnsandboxedAutoRun(started.app, say);
      return started;
    });
  const acp = new AcpAgent(
    starting.then(({ app, settings, version }) => ({
      app,
      settings: () => settings.get(),
      version,
      addMcpServers: (servers) => {
        const configured = settings.get().mcpServers;
        const { add, kept } = clientMcpServers(servers, configured);
        for (const name of kept) say(`the editor's MCP server "${name}" has the name of one in the app's settings: that one is used`);
        if (Object.keys(add).length) settings.override({ mcpServers: { ...configured, ...add } });
      },
    })),
    appVersion(),
    () => begin(),
  );
  const stream = ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = acp.register(agent({ name: 'oi acp' })).connect(stream);
  setTimeout(() => begin(), START_AT_LATEST_MS).unref();
  let app;
  try {
    ({ app } = await starting);
  } catch (err) {
    connection.close();
    throw err;
  }
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
