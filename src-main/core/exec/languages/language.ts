import type { ExecSettings } from '@contract';
import type { ChannelKind } from '../runner/runner-channel';
import type { Probing } from './probing';

// What a language file declares. Adding a language is adding one file that exports one of these
// and listing it in registry.ts.

/** How code in the language runs: a kept-alive shell, a runner speaking the side-channel protocol,
 *  a fresh process per run, or not executed at all (HTML is shown, not run). */
export type SessionKind = 'shell' | 'runner' | 'one-shot' | 'html';

export interface Runtime {
  /** Absolute path (or PATH name) of the program to start. */
  command: string;
  version: string | null;
  /** Extra environment the runtime needs (e.g. ELECTRON_RUN_AS_NODE for Electron's Node). */
  env?: Record<string, string>;
  /**
   * Programs sandboxed code cannot write whose install folders the session also needs to see: the
   * interpreter a workspace .venv was made from. Found by the app itself, never taken from what the
   * workspace says about itself (its pyvenv.cfg, where its links point).
   */
  support?: string[];
  /**
   * Python: the import names the interpreter listed in the same process that gave its version, and
   * when that answer came back (python-packages.ts), so that a question asked at the same moment needs
   * no second interpreter.
   */
  packages?: { names: string[]; listedAt: number };
}

export interface DetectContext {
  workspace: string | null;
  settings: Pick<ExecSettings, 'pythonPath'> | null;
  /** PATH to search, from the environment code will run with. */
  path: string;
  /** Where programs are run to ask them things (default: directly, as without a sandbox). */
  probing?: Probing;
}

export interface LanguageDefinition {
  name: string;
  /** How people write the language's name in sentences: 'Python', 'R'. */
  label: string;
  aliases: string[];
  kind: SessionKind;
  /** Name of the runtime in the "available here" list: 'python', 'node', 'bash'. */
  runtimeLabel: string;
  /** Finds the runtime; null when it is not installed. */
  detect(context: DetectContext): Promise<Runtime | null>;
  /** One-shot languages: file extension of the code file and the command line that runs it. */
  oneShot?: {
    fileName: string;
    args(codeFile: string): string[];
  };
  /** Runner languages: the runner script under resourcesDir. */
  runner?: {
    script: string;
    args(script: string): string[];
    /** How the runner reaches main: a Unix socket (default), or two FIFOs for a runtime without
     *  Unix sockets (base R). */
    channel?: ChannelKind;
    /**
     * The runner's main thread is in its between-cells wait only once the cell is over, never
     * inside one (unlike Node's event loop, which waits the same way during a cell's `await`). At a
     * run's end main then reads what the runner already sent itself instead of asking `sync`
     * (session/run-end.ts).
     */
    idleMeansCellOver?: boolean;
    /**
     * The runner turns its terminal's output processing off itself (termios, before it prints
     * anything), so it is started without the `/bin/sh -c 'stty -opost; exec …'` wrapper: two
     * processes fewer per session start (runner-spawn.ts rawOutput).
     */
    rawOutputItself?: boolean;
  };
  /**
   * The runtime makes a temp folder of its own at start and removes it only on a clean exit (R's
   * RtmpXXXXXX): it then gets TMPDIR inside a folder the engine removes itself, killed or not — the
   * runner session's private folder, or a one-shot run's own folder.
   */
  privateTmpdir?: boolean;
}
