import { appVersion } from '../core/app-version';
import { HELP } from './help-text';

// `oi`: the terminal interface on the same core as the desktop app — the same handler table and
// events, no server. This entry answers --help and --version itself and loads the rest only for a
// real run: the app's modules (the SDKs, zod's schemas) take several times Node's own start-up.

const argv = process.argv.slice(2);
const first = argv[0];
const help = argv.length === 1 && (first === '--help' || first === '-h');
const version = argv.length === 1 && (first === '--version' || first === '-v');
if (help) {
  process.stdout.write(`${HELP}\n`);
} else if (version) {
  process.stdout.write(`${appVersion()}\n`);
} else if ((first === 'skills' && argv[1] === 'install') || (first === 'trust' && argv.length === 2)) {
  // `oi skills install <folder|zip>`, `oi trust <folder>` (docs/cli.md): one change to the data folder.
  const commands = await import('./folder-commands');
  const io = { out: (line: string) => process.stdout.write(`${line}\n`), err: (line: string) => process.stderr.write(`${line}\n`) };
  const done = first === 'trust' ? commands.runTrust(argv.slice(1), io) : commands.runSkillsInstall(argv.slice(2), io);
  process.exitCode = await done;
} else if (first === 'mcp' || first === 'acp') {
  // `oi mcp` (docs/mcp.md) and `oi acp` (docs/acp.md): servers whose stdout is the protocol's, so
  // nothing else prints there.
  const run = first === 'mcp' ? (await import('./mcp-command')).runMcp : (await import('./acp/acp-command')).runAcp;
  process.exitCode = 1;
  run(argv.slice(1), process.env).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`oi ${first}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
} else if (first === 'schedule') {
  // `oi schedule add|list|remove|run` (docs/schedules.md): `run` is what the OS scheduler starts.
  const { runSchedule } = await import('./schedule/schedule-command');
  process.exitCode = 1;
  runSchedule(argv.slice(1), process.env).then(
    (end) => end.exit(),
    (err: unknown) => {
      process.stderr.write(`oi schedule: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
} else if (
  (first === 'ps' && (argv.length === 1 || (argv.length === 2 && argv[1] === '--json'))) ||
  ((first === 'attach' || first === 'stop') && argv.length === 2)
) {
  // `oi ps`, `oi attach <id>`, `oi stop <id>` (docs/cli.md#background-runs); other words are a message.
  const { runBackgroundCommand } = await import('./background/background-command');
  process.exitCode = 1;
  (await runBackgroundCommand(argv)).exit();
} else if (argv.includes('--background')) {
  const { startBackground } = await import('./background/background-command');
  process.exitCode = 1;
  (await startBackground(argv, process.env)).exit();
} else {
  const { runCli } = await import('./cli-run');
  // The detached oi of a background run: its end goes to its record. The variable is not passed on to
  // the code it runs.
  const background = process.env.OI_BACKGROUND_RUN;
  delete process.env.OI_BACKGROUND_RUN;
  let seen: { reason: string; conversationId: string } | null = null;
  // Should the event loop ever drain with a turn still pending, that is a failure, not success.
  process.exitCode = 1;
  runCli(argv, process.env, undefined, async (end) => void (seen = end)).then(
    async (end) => {
      if (background) await (await import('./background/background-command')).recordBackgroundEnd(background, end.code, seen);
      end.exit();
    },
    (err: unknown) => {
      process.stderr.write(`oi: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
