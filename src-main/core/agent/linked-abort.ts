/**
 * An AbortController aborted with `parent`, for work shorter than the parent's life (one model
 * call, one cell of a turn). What listens on its signal goes with it once `release` is called: the
 * OpenAI SDK adds an abort listener to the signal of every request and never removes it, so on the
 * turn's own signal a 20-step turn kept 20 listeners, with what they hold, until it ended (and
 * Node warned of a leak past 10).
 */
export function linkedAbort(parent: AbortSignal): { controller: AbortController; release(): void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  parent.addEventListener('abort', onAbort, { once: true });
  if (parent.aborted) controller.abort();
  return { controller, release: () => parent.removeEventListener('abort', onAbort) };
}
