// Input requests for the JavaScript session (docs/exec-protocol.md#input). Node reads its stdin in
// the event loop, so a cell waiting on process.stdin looks from outside like any idle program: main
// could not tell it waits for a person. process.stdin is therefore a stream of our own whose every
// read asks main for a line (readline, `process.stdin.on('data')`, `for await … of rl`), answered by
// the person or with end-of-input when there is nobody. A synchronous read of fd 0
// (`fs.readSync(0)`) still waits on the real terminal, where main notices it.

import { Readable } from 'node:stream';

/**
 * @param {object} options
 * @param {(prompt: string, password: boolean) => Promise<string | null>} options.ask asks main for a
 *   line (null: end-of-input)
 * @param {(text: string) => void} options.echo writes to the cell's stdout
 * @param {() => void} [options.onEnd] called when a read got end-of-input
 */
export function installInput({ ask, echo, onEnd }) {
  let current = makeStdin(ask, echo, onEnd);
  Object.defineProperty(process, 'stdin', {
    configurable: true,
    enumerable: true,
    get: () => current,
  });
  return {
    /** A stream that reached end-of-input is done for good; the next cell gets a fresh one. */
    renew() {
      if (current.readableEnded || current.destroyed) current = makeStdin(ask, echo, onEnd);
    },
  };
}

function makeStdin(ask, echo, onEnd) {
  let asking = false;
  const stdin = new Readable({
    encoding: 'utf8',
    read() {
      if (asking) return;
      asking = true;
      // A turn of the event loop first, so a prompt written right after the read began (readline
      // starts reading when the interface is made, before question() writes) is already out.
      setImmediate(() => {
        ask('', false).then(
          (line) => {
            asking = false;
            if (line === null) {
              stdin.push(null);
              onEnd?.();
              return;
            }
            // In raw mode a line editor (readline with a terminal) shows what is typed itself.
            if (!stdin.isRaw) echo(`${line}\n`);
            stdin.push(`${line}\n`);
          },
          () => {
            asking = false;
            stdin.push(null);
          },
        );
      });
    },
  });
  // It stands for the terminal: readline and prompt libraries look for these.
  stdin.fd = 0;
  stdin.isTTY = true;
  stdin.isRaw = false;
  stdin.setRawMode = (mode) => {
    stdin.isRaw = !!mode;
    return stdin;
  };
  stdin.ref = () => stdin;
  stdin.unref = () => stdin;
  return stdin;
}
