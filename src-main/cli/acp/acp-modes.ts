import { RequestError, type SessionModeState } from '@agentclientprotocol/sdk';

// The session modes `oi acp` offers: ask and auto-run (the conversation's auto-run switch) and plan
// (its plan mode, docs/cli.md#plan-mode: code runs read-only in the sandbox until the person approves
// a plan). Plan mode sits over the auto-run switch, which it leaves as it was: an approved plan, or
// set_mode ask / auto-run, ends it.

export const ASK = 'ask';
export const AUTO_RUN = 'auto-run';
export const PLAN = 'plan';
const IDS = [ASK, AUTO_RUN, PLAN];

export interface ModeFacts {
  autoRun: boolean;
  planMode: boolean;
}

export function modeIdOf(facts: ModeFacts, settingsAutoRun: boolean): string {
  if (facts.planMode) return PLAN;
  return facts.autoRun || settingsAutoRun ? AUTO_RUN : ASK;
}

export function modeState(facts: ModeFacts, settingsAutoRun: boolean): SessionModeState {
  return {
    currentModeId: modeIdOf(facts, settingsAutoRun),
    availableModes: [
      { id: ASK, name: 'Ask', description: 'Ask before running each piece of code' },
      { id: AUTO_RUN, name: 'Auto-run', description: 'Run code without asking (in the sandbox where it is on)' },
      { id: PLAN, name: 'Plan', description: 'Code runs read-only in the sandbox until you approve a plan' },
    ],
  };
}

/** A set_mode's mode id, checked: the error names it and the modes there are. */
export function checkModeId(modeId: string, settingsAutoRun: boolean): void {
  if (!IDS.includes(modeId)) throw new RequestError(-32602, `no mode "${modeId}": ${IDS.join(', ')}`);
  if (modeId === ASK && settingsAutoRun)
    throw new RequestError(-32602, "auto-run is on in the app's settings (or --auto-run): every conversation runs code without asking");
}
