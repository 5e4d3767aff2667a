import type { DetectContext } from '../languages/language';
import { localProbing } from '../languages/probing';
import { shell } from '../languages/shell';
import { buildEnvironment } from '../process/env';
import type { SessionRoute } from '../session/session-types';
import type { SessionRouter } from './session-router';
import type { LanguagesScope, RunRequest } from './types';

/** Finds where and with what runtimes a request's runs are looked for (createContextDetection). */
export type DetectContextOf = (request: RunRequest | null, route?: SessionRoute) => Promise<DetectContext>;

/**
 * Where and with what runtimes are looked for: the request's PATH, and the route's probing, so
 * that for a sandboxed conversation anything its code could have written is only ever run inside
 * the sandbox (languages/probing.ts).
 */
export function createContextDetection(parts: {
  baseEnv: NodeJS.ProcessEnv;
  router: SessionRouter;
  tmpRoot: string;
  secretValues: () => string[];
}): DetectContextOf {
  const { baseEnv, router, tmpRoot, secretValues } = parts;
  return async function detectContext(request, route) {
    const path = request?.settings.env.PATH ?? baseEnv.PATH ?? '';
    if (!request) return { workspace: null, settings: null, path, probing: localProbing() };
    // Any local kind of language gives the conversation's own route (sandboxed or not).
    const where = route ?? (await router.route(request, shell));
    // The environment only when the route's probing needs it (a program asked inside the sandbox):
    // building it walks the whole process environment, a good part of a warm run's time.
    const probing = where.probing
      ? where.probing({
          workspace: request.workspace,
          env: () => buildEnvironment({ base: baseEnv, settingsEnv: request.settings.env, secretValues: secretValues() }),
          tmpRoot,
        })
      : localProbing();
    return { workspace: request.workspace, settings: request.settings, path, probing };
  };
}

/** A scope as the request a run there would make (for its PATH and its route). */
export function scopeRequest(scope: LanguagesScope): RunRequest {
  return { conversationId: '', language: 'shell', code: '', ...scope };
}
