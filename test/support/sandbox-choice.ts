import type { SettingsPatch } from '@contract';

/**
 * The sandbox chosen off, as a person who turned it off in Settings. For tests about something else
 * whose cells reach files, processes or servers outside a workspace: the sandbox is on by default
 * (docs/sandbox.md, "On by default"), and the default is held by its own tests.
 */
export const SANDBOX_CHOSEN_OFF = { sandbox: { enabled: false, chosen: true } } satisfies SettingsPatch;
