import type { Session, SessionOutcome, SessionRun } from './session-types';

// HTML is not executed: it becomes a text/html output for the UI to render in a sandboxed frame.
export class HtmlSession implements Session {
  readonly alive = true;
  readonly diedWhileIdle = null;

  async run(run: SessionRun): Promise<SessionOutcome> {
    run.output.rich({
      output_type: 'display_data',
      data: { 'text/html': run.code, 'text/plain': `[HTML, ${run.code.length} characters]` },
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
