import type { DetectContext, LanguageDefinition, Runtime } from '../languages/language';
import { availableRuntimes } from '../languages/registry';
import { unavailableMessage } from '../output/messages';
import { createLimitController, type LimitController } from '../process/limits';
import type { Session, SessionRoute, StartSessionOptions } from '../session/session-types';
import type { SessionRouter } from './session-router';
import { liveSession, type SessionSlot } from './session-slots';
import type { RunRequest } from './types';

// Where a run goes (its route: a remote kernel, the sandbox, a local process) and with what runtime,
// and the slot's session started there: the first phase of a run, and all of ExecService.prepare.

/** What placing a run and starting its session need (RunExecutionOptions has them all). */
export interface PlacementOptions {
  router: SessionRouter;
  /** What a new session is started with apart from the language, runtime, workspace and settings. */
  sessionBase: Pick<StartSessionOptions, 'tmpRoot' | 'resourcesDir'>;
  /** The environment code runs with (env.ts). */
  environment(request: RunRequest, runtime: Runtime): Record<string, string>;
  /** Where runtimes are looked for, and where programs are run to ask them (the route's probing). */
  detectContext(request: RunRequest, route: SessionRoute): Promise<DetectContext>;
}

/** Where a run goes and with what runtime, or why it cannot run there. */
type Placement = { route: SessionRoute; runtime: Runtime } | { refusal: string; route: SessionRoute };

export async function placeRun(options: PlacementOptions, request: RunRequest, language: LanguageDefinition): Promise<Placement> {
  const route = await options.router.route(request, language);
  if (route.refusal) return { refusal: route.refusal, route };
  const context = await options.detectContext(request, route);
  const runtime = route.runtime ?? (await language.detect(context).catch(() => null));
  if (!runtime) return { refusal: unavailableMessage(language.label, await availableRuntimes(context)), route };
  return { route, runtime };
}

export function startIn(
  options: PlacementOptions,
  request: RunRequest,
  language: LanguageDefinition,
  slot: SessionSlot,
  placed: { route: SessionRoute; runtime: Runtime },
): Promise<Session> {
  const { route, runtime } = placed;
  return liveSession(slot, language, runtime, route, () =>
    route.start({
      ...options.sessionBase,
      language,
      runtime,
      workspace: request.workspace,
      env: options.environment(request, runtime),
      limits: noticingSpawn(createLimitController(), request.onSpawn),
      settings: request.settings,
    }),
  );
}

/**
 * `limits` telling `onSpawn` once the session's process is started: every session wraps its spawn
 * command through its limits right before it spawns, inside any sandbox's wrapping.
 */
function noticingSpawn(limits: LimitController, onSpawn: (() => void) | undefined): LimitController {
  if (!onSpawn) return limits;
  let told = false;
  return {
    beforeRun: (pid, settings) => limits.beforeRun(pid, settings),
    settled: (pid, settings) => limits.settled?.(pid, settings) ?? false,
    wrapSpawn(file, args, settings) {
      const command = limits.wrapSpawn(file, args, settings);
      // After the spawn, which follows this call in the same turn of the event loop.
      if (!told) setImmediate(onSpawn);
      told = true;
      return command;
    },
    ...(limits.dispose ? { dispose: () => limits.dispose?.() ?? Promise.resolve() } : {}),
  };
}

/**
 * Starts the session a run of `request` would use, running nothing (ExecService.prepare): a session
 * that is already live is kept, one that cannot start is left for the run to report.
 */
export function createSessionPreparation(
  options: PlacementOptions,
): (run: { request: RunRequest; language: LanguageDefinition; slot: SessionSlot }) => Promise<void> {
  return async ({ request, language, slot }) => {
    const placed = await placeRun(options, request, language);
    if ('refusal' in placed || request.signal?.aborted) return;
    await startIn(options, request, language, slot, placed).catch(() => undefined);
  };
}
