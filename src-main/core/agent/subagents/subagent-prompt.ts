import type { DelegateCall } from './delegate-args';

/** The sub-agent's first message: its task, what to give back, and what it may do. */
export function subagentPrompt(call: DelegateCall): string {
  return [
    `You are the sub-agent "${call.name}", started by another agent to do one part of a larger task. You do not see its conversation: everything you need is below.`,
    `Task:\n${call.task}`,
    `When you are done, answer (without code) with exactly this, briefly: ${call.returns}`,
    call.mayWrite
      ? 'You may change files in the working folder.'
      : 'You may read files and run code, but you may not change files in the working folder: anything you change there is put back after each run.',
  ].join('\n\n');
}
