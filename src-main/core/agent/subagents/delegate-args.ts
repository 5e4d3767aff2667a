import { ProviderKind, type ModelChoice, type Settings } from '@contract';
import { pairingProblem } from '../../llm/model-pairing';

export interface DelegateCall {
  name: string;
  task: string;
  returns: string;
  mayWrite: boolean;
  choice: ModelChoice;
}

const NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,39}$/u;

/**
 * Reads a `delegate` call's JSON arguments strictly: every problem is named, so the model reads it as
 * the call's result and can call again. The model is the parent's unless the call names another
 * provider (then the model and endpoint last used with it, settings.providerModels) or model.
 */
export function parseDelegateArgs(
  args: string,
  parent: Settings,
  saved: Settings,
): { ok: true; call: DelegateCall } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch (err) {
    return { ok: false, error: `the arguments are not valid JSON (${(err as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, error: 'the arguments must be a JSON object' };
  const a = value as Record<string, unknown>;
  const text = (key: string, max: number): string | { error: string } => {
    const v = a[key];
    if (typeof v !== 'string' || v.trim() === '') return { error: `"${key}" must be a non-empty string` };
    if (v.length > max) return { error: `"${key}" is longer than ${max} characters` };
    return v.trim();
  };
  const name = text('name', 40);
  const task = text('task', 20_000);
  const returns = text('returns', 2_000);
  for (const v of [name, task, returns]) if (typeof v !== 'string') return { ok: false, error: v.error };
  if (typeof name !== 'string' || typeof task !== 'string' || typeof returns !== 'string') return { ok: false, error: 'unreachable' };
  if (!NAME.test(name)) return { ok: false, error: `"name" must be letters, digits, spaces, ".", "_" or "-" (at most 40): "${name}"` };
  if (a.write !== undefined && typeof a.write !== 'boolean') return { ok: false, error: '"write" must be true or false' };
  const unknown = Object.keys(a).filter((k) => !['name', 'task', 'returns', 'write', 'provider', 'model'].includes(k));
  if (unknown.length > 0) return { ok: false, error: `unknown argument ${unknown.map((k) => `"${k}"`).join(', ')}` };
  const choice = modelChoiceFor(a.provider, a.model, parent, saved);
  if ('error' in choice) return { ok: false, error: choice.error };
  return { ok: true, call: { name, task, returns, mayWrite: a.write === true, choice } };
}

function modelChoiceFor(provider: unknown, model: unknown, parent: Settings, saved: Settings): ModelChoice | { error: string } {
  if (provider !== undefined && !ProviderKind.safeParse(provider).success)
    return { error: `"provider" must be one of ${ProviderKind.options.join(', ')}` };
  if (model !== undefined && (typeof model !== 'string' || model.trim() === '' || model.length > 256))
    return { error: '"model" must be a model name' };
  const kind = (provider as ProviderKind | undefined) ?? parent.provider;
  const named = model;
  let choice: ModelChoice;
  if (kind === parent.provider) choice = { provider: kind, model: named?.trim() ?? parent.model, baseUrl: parent.baseUrl };
  else {
    // Another provider: the endpoint the person last used with it (and its model unless one is named).
    const remembered = saved.providerModels[kind] ?? (saved.provider === kind ? { model: saved.model, baseUrl: saved.baseUrl } : undefined);
    if (!remembered) return { error: `the provider ${kind} is not set up here (it was never chosen in Settings); use ${parent.provider}` };
    choice = { provider: kind, model: named?.trim() ?? remembered.model, baseUrl: remembered.baseUrl };
  }
  const problem = pairingProblem(choice);
  return problem ? { error: problem } : choice;
}
