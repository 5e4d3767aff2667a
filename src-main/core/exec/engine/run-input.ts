import type { RunRequest } from './types';
import { InputBroker } from '../input/input-broker';
import type { InputQuestion } from '../input/input-types';
import type { TerminalRead } from '../input/terminal-reader';
import { TerminalWatch } from '../input/terminal-watch';
import type { RunOutput } from '../output/run-output';
import type { Session } from '../session/session-types';

// A run's input: the broker its session's runner asks through, and the watch on its terminal for
// programs that read it directly (docs/exec.md#input).

export interface RunInputSetup {
  broker: InputBroker;
  /** Starts the terminal's watch (once the run is under way: a quiet run ends long before it looks). */
  watch(): void;
  /** Ends the watch and withdraws open questions (the run is over or being stopped). */
  close(): void;
}

/** The run's clock as the input needs it (run-timer.ts): stopped while a person is asked. */
export interface RunClock {
  pause(): void;
  resume(): void;
}

export function startRunInput(options: {
  request: RunRequest;
  session: Session;
  output: RunOutput;
  timer: RunClock;
  onStuck(reader: TerminalRead, question: InputQuestion): void;
}): RunInputSetup {
  const { request, session, output, timer } = options;
  const broker = new InputBroker({
    asker: request.onInput,
    waitLimitMs: request.settings.inputWaitMs,
    pauseClock: () => timer.pause(),
    resumeClock: () => timer.resume(),
    beforeAsking: () => output.flushTerminal(),
  });
  const watch =
    TerminalWatch.supported() && session.terminal
      ? new TerminalWatch({
          terminal: () => session.terminal?.() ?? null,
          input: broker,
          outputBytes: () => output.totalBytes,
          trailingLine: () => output.trailingLine(),
          onStuck: options.onStuck,
        })
      : null;
  return {
    broker,
    watch: () => watch?.start(),
    close() {
      watch?.stop();
      broker.close();
    },
  };
}
