import type { LanguageDefinition } from '../languages/language';
import { LANGUAGES, availableRuntimes } from '../languages/registry';
import type { RunLimits } from '@contract';
import { askedAs, loginShellOf } from '../shell/shell-choice';
import type { DetectContextOf } from './detect-context';
import { KeyedQueue } from './run-queue';
import { simpleResult } from './run-result';
import type { SessionRouter } from './session-router';
import type { SessionSlot, SessionSlots } from './session-slots';
import type { RunRequest, RunResult } from './types';

// A run's admission: the language it really goes to (a shell cell's shell), and its session slot,
// in the order the conversation's runs were asked; or why no language of that name runs here.

/** Where an admitted run goes. */
export interface Admitted {
  language: LanguageDefinition;
  /** Why the run went to another shell than asked, for the model. */
  note: string | null;
  /** How the cell named the language (askedAs in shell-choice.ts). */
  asked: string;
  slot: SessionSlot;
}

export function createAdmission(parts: {
  baseEnv: NodeJS.ProcessEnv;
  router: SessionRouter;
  slots: SessionSlots;
  detectContext: DetectContextOf;
}): (request: RunRequest, named: LanguageDefinition) => Promise<Admitted> {
  const { baseEnv, router, slots, detectContext } = parts;
  /** Runs of one conversation, from the request to their session's queue (see ExecService.run). */
  const admissions = new KeyedQueue();
  /** The language a run really goes to (a shell cell's shell), and its session slot, in the order runs were asked. */
  return async function admit(request: RunRequest, named: LanguageDefinition): Promise<Admitted> {
    const loginShell = loginShellOf({ SHELL: 'SHELL' in request.settings.env ? request.settings.env.SHELL : baseEnv.SHELL });
    // Only a shell's choice reads the context (router.choose): another language is admitted without
    // building one (a route, a sandbox probing), which a warm run's admission would otherwise pay.
    const { language, note } = await admissions.push(request.conversationId, () =>
      named.kind !== 'shell'
        ? Promise.resolve({ language: named, note: null })
        : detectContext(request)
            .then(({ path, probing }) => router.choose(request, named, { loginShell, path, ...(probing ? { probing } : {}) }))
            .catch(() => ({ language: named, note: null })),
    );
    const asked = askedAs(request.language, named);
    slots.remember(request.conversationId, asked, language.name);
    return { language, note, asked, slot: slots.slotFor(request.conversationId, language.name) };
  };
}

/** The result of a run in a language the app does not know: the languages it runs, and those installed here. */
export async function unknownLanguage(
  request: RunRequest,
  detectContext: DetectContextOf,
  started: number,
  limits: RunLimits,
): Promise<RunResult> {
  const known = LANGUAGES.map((l) => l.name).join(', ');
  const available = await detectContext(request)
    .then((context) => availableRuntimes(context))
    .catch(() => []);
  return simpleResult(
    'unavailable',
    `Unknown language "${request.language}". Languages this app runs: ${known}; installed here: ${available.join(', ')}.`,
    started,
    limits,
    0,
  );
}
