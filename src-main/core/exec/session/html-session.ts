import type { Session, SessionOutcome, SessionRun } from './session-types';

// HTML is not executed: it becomes a text/html output for the UI to render in a sandboxed frame. Its
// plain-text alternative is what IPython's %%html gives (and Jupyter saves), so an html cell exports
// and re-runs as the same output a notebook's `%%html` cell has.
export class HtmlSession implements Session {
  readonly alive = true;
  readonly diedWhileIdle = null;

  async run(run: SessionRun): Promise<SessionOutcome> {
    run.output.rich({
      output_type: 'display_data',
      data: { 'text/html': run.code, 'text/plain': '<IPython.core.display.HTML object>' },
      metadata: {},
    });
    return { status: 'done', exitCode: 0, cwd: null, message: null };
  }

  interrupt(): void {}
  async killChildren(): Promise<void> {}
  async kill(): Promise<void> {}
  setPaused(): void {}
  async dispose(): Promise<void> {}
}
