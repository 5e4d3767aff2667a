// The language of a schedule_task call's cell (schedule-proposal.ts), in a file of its own: the chat's
// rows test for it, and importing it from schedule-proposal.ts would put the schedule schemas (zod) in
// the renderer's first chunk.
export const SCHEDULE_LANGUAGE = 'agent:schedule';
