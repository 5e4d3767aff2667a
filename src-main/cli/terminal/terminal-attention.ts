import { attentionFor, type AnyEvent, type NotifyKind } from '@contract';

// The terminal's way of calling the person back (docs/cli.md#notifications): a bell, which most
// terminals turn into a sound, a flashing tab or a dock bounce, and the window's title saying why —
// at the moments the desktop app and the browser notify (contract/notifications.ts), filtered by
// Settings' notifyOn. Only when standard output is a terminal: a bell or a title escape in a file or
// a pipe would be bytes in someone's output, not a call.

const BELL = '\x07';
// OSC 0 sets the window and tab title; the title's own control characters are dropped so that a
// conversation cannot end the escape early and write to the terminal.
// eslint-disable-next-line no-control-regex
const title = (text: string) => `\x1b]0;${text.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ')}\x07`;
// XTWINOPS: keep the person's own title before the first change, and give it back when oi ends.
const PUSH_TITLE = '\x1b[22;0t';
const POP_TITLE = '\x1b[23;0t';

export interface TerminalAttentionOptions {
  /** Where the bell and title go: oi's standard output. */
  out: NodeJS.WriteStream;
  /** Settings' notifyOn, read at each moment (a change in Settings counts at once). */
  notifyOn: () => readonly NotifyKind[];
  /** The events of the conversation at the keyboard. */
  onEvent: (listener: (event: AnyEvent) => void) => () => void;
}

/** Rings and titles at the moments the person asked for; returns what gives the title back. */
export function terminalAttention(opts: TerminalAttentionOptions): () => void {
  if (!opts.out.isTTY) return () => undefined;
  let titled = false;
  const write = (text: string) => {
    try {
      if (!opts.out.destroyed) opts.out.write(text);
    } catch {
      // The terminal went away (a hangup): nobody is left to call.
    }
  };
  const unsubscribe = opts.onEvent((event) => {
    if (event.name === 'turn.start' && titled) return write(title('oi: working'));
    const attention = attentionFor(event);
    if (!attention || !opts.notifyOn().includes(attention.kind)) return;
    write(`${titled ? '' : PUSH_TITLE}${title(`oi: ${attention.text}`)}${BELL}`);
    titled = true;
  });
  const restore = () => {
    unsubscribe();
    if (titled) write(POP_TITLE);
    titled = false;
  };
  process.once('exit', restore);
  return restore;
}
