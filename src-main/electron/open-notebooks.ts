import path from 'node:path';
import type { App } from 'electron';
import { errorMessage } from '@contract';
import type { Dispatcher } from '../core/bridge/dispatch';

// Notebooks the OS hands the app (a double-click on an .ipynb, "Open with…", `open-interpreter-desktop
// file.ipynb`): on Linux and Windows as command-line arguments, of the first launch or of a second one
// (which the single-instance lock turns into `second-instance` here); on macOS as `open-file`, which
// may fire before the app is ready. Each is imported as a new conversation through the
// `notebook.import` request, so it gets exactly the checks a notebook dropped on the window gets.

/** What the shell does with an outcome: show the conversation, or say why the file was refused. */
export interface NotebookOpenTarget {
  dispatch: Dispatcher;
  opened(conversationId: string, fileName: string, warnings: readonly string[]): void;
  refused(fileName: string, message: string): void;
}

/** The .ipynb files among a launch's arguments, made absolute against the launch's working folder. */
export function notebookPathsIn(args: readonly string[], workingDirectory: string): string[] {
  return args.filter((arg) => !arg.startsWith('-') && /\.ipynb$/i.test(arg)).map((arg) => path.resolve(workingDirectory, arg));
}

export class NotebookOpener {
  private target: NotebookOpenTarget | null = null;
  private readonly waiting: string[] = [];
  /** One import at a time, in the order the files came: a second launch must not overtake the first. */
  private chain: Promise<void> = Promise.resolve();

  /** Imports `paths`, now when the app is started, else once it is (start). Settles when they are done. */
  open(paths: readonly string[]): Promise<void> {
    if (!this.target) {
      this.waiting.push(...paths);
      return Promise.resolve();
    }
    const target = this.target;
    for (const file of paths) this.chain = this.chain.then(() => importOne(target, file));
    return this.chain;
  }

  /** The app is ready: what came before is imported now. */
  start(target: NotebookOpenTarget): Promise<void> {
    this.target = target;
    return this.open(this.waiting.splice(0));
  }
}

async function importOne(target: NotebookOpenTarget, file: string): Promise<void> {
  const fileName = path.basename(file);
  // The desktop window's transport: the one that may name a file by its path on this machine.
  const reply = await target.dispatch('notebook.import', { fileName, source: { sourcePath: file } }, { transport: 'ipc' });
  if (reply.ok) {
    const { conversation, warnings } = reply.result as { conversation: { id: string }; warnings: string[] };
    target.opened(conversation.id, fileName, warnings);
  } else {
    target.refused(fileName, reply.error.message);
  }
}

/**
 * Wires Electron's events to the opener: `open-file` (macOS; registered before `ready`, when it
 * first fires) and `second-instance` (the arguments and folder of a second launch, which then quits).
 * `focus` brings the running window forward for a second launch, with or without a notebook.
 */
export function bindNotebookOpening(
  app: Pick<App, 'on'>,
  opener: NotebookOpener,
  focus: () => void,
  report: (err: unknown) => void = (err) => console.warn(`opening a notebook failed: ${errorMessage(err)}`),
): void {
  app.on('open-file', (event, file) => {
    // Without preventDefault macOS is told the app could not open the file.
    event.preventDefault();
    opener.open([file]).catch(report);
  });
  app.on('second-instance', (_event, argv, workingDirectory) => {
    focus();
    opener.open(notebookPathsIn(argv.slice(1), workingDirectory)).catch(report);
  });
}
