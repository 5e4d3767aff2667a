// The environment code runs with: the user's own environment plus the variables from settings,
// minus the API keys the app holds. Keys the app stores must not reach model-written code (which
// could print or send them) unless the user puts them in settings.env on purpose.

import { KEY_VARIABLES } from '../../secrets/env-secret-source';

/**
 * Every variable the app reads provider keys from (the list `oi --help` shows): stripped even when
 * it came from the user's shell, set or not, whatever it holds.
 */
export const KEY_VARIABLE_NAMES: readonly string[] = Object.keys(KEY_VARIABLES);

/** Variables the app's own runtime sets that would change how child programs behave. */
const APP_RUNTIME_VARIABLES = [
  'ELECTRON_RUN_AS_NODE',
  'ELECTRON_NO_ATTACH_CONSOLE',
  'ELECTRON_ENABLE_LOGGING',
  'VITEST',
  'VITEST_MODE',
  'VITEST_POOL_ID',
  'VITEST_WORKER_ID',
  'NODE_ENV',
] as const;

export interface EnvironmentInput {
  base: NodeJS.ProcessEnv;
  /** settings.exec.env: applied last, so it is also how a user opts a key in. */
  settingsEnv: Record<string, string>;
  /** Values of the secrets the app holds (API keys): any inherited variable holding one is dropped. */
  secretValues: readonly string[];
  /** Variables the session itself needs (OI_CHANNEL…), applied after settings. */
  sessionEnv?: Record<string, string>;
  /** The program that stands in for a text editor (resources/bin/oi-no-editor); absent: EDITOR is left alone. */
  noEditor?: string;
}

/** Pagers programs look for; set so that output is printed, never held for a key nobody presses. */
const PAGER_VARIABLES = ['PAGER', 'GIT_PAGER', 'MANPAGER', 'SYSTEMD_PAGER', 'PSQL_PAGER', 'GH_PAGER'] as const;
/** Editors programs open; set to one that fails at once, saying why (nobody can type into it). */
const EDITOR_VARIABLES = ['EDITOR', 'VISUAL', 'GIT_EDITOR'] as const;

/** An environment without the variables the app reads keys from (for programs the app runs itself). */
export function withoutKeys(env: NodeJS.ProcessEnv, secretValues: readonly string[] = []): Record<string, string> {
  const holdsKey = keyMatcher(secretValues);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || KEY_VARIABLE_NAMES.includes(key) || holdsKey(value)) continue;
    out[key] = value;
  }
  return out;
}

/**
 * True for a value that holds one of the keys: equal to it once whitespace is trimmed (a shell's
 * $(cat key.txt) keeps a newline), or containing it ("Bearer sk-…").
 */
function keyMatcher(secretValues: readonly string[]): (value: string) => boolean {
  const keys = [...new Set(secretValues.map((v) => v.trim()).filter((v) => v.length >= 8))];
  return (value) => keys.some((key) => value.includes(key));
}

export function buildEnvironment(input: EnvironmentInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(withoutKeys(input.base, input.secretValues))) {
    if ((APP_RUNTIME_VARIABLES as readonly string[]).includes(key)) continue;
    env[key] = value;
  }
  env.TERM = 'xterm-256color';
  env.COLORTERM ??= 'truecolor';
  // A desktop app started from the dock may have no locale; without one, Python and others fall
  // back to ASCII and fail on the first non-ASCII character.
  if (!env.LANG && !env.LC_ALL && !env.LC_CTYPE) env.LANG = process.platform === 'darwin' ? 'en_US.UTF-8' : 'C.UTF-8';
  // Nobody is there to page through output: a pager would wait for a key until the timeout (less,
  // man, git log, systemctl, psql, gh). The AWS CLI's pager is off when its variable is empty.
  for (const name of PAGER_VARIABLES) env[name] = 'cat';
  env.AWS_PAGER = '';
  // Nor to use a full-screen editor: `git commit` without -m fails at once with a sentence saying so.
  // The user's own EDITOR is for their terminal; Settings → Environment variables can still set one.
  if (input.noEditor) for (const name of EDITOR_VARIABLES) env[name] = shellWord(input.noEditor);
  // Git's own credential prompts are left on (GIT_TERMINAL_PROMPT is not set to 0): a question at the
  // terminal reaches the person, or gets end-of-input at once when there is none (docs/exec.md#input).
  Object.assign(env, input.settingsEnv, input.sessionEnv ?? {});
  return env;
}

/**
 * A path as one shell word: programs run EDITOR through a shell (git: `sh -c "$EDITOR …"`), so an app
 * installed under a folder with a space ("/Applications/Open Interpreter.app") would otherwise name a
 * program that does not exist. Plain paths stay as they are.
 */
function shellWord(path: string): string {
  return /^[\w/.,:+@%-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
