import { defaultSettings } from '@contract';

/** The settings version this build writes; the contract's Settings schema pins the same number. */
export const SETTINGS_VERSION: number = defaultSettings.version;

type Document = Record<string, unknown>;

/**
 * `steps[n]` turns a version-n document into a version-(n+1) one. A step only renames and reshapes;
 * values are checked against the schema afterwards, field by field. To add v2: bump the literal in the
 * contract, add `steps[1]`, and a test that feeds a v1 file through it.
 */
const steps: Record<number, (document: Document) => Document> = {
  0: fromV0,
  1: fromV1,
};

/**
 * v2 made the sandbox the default wherever it works. A v1 file always held `sandbox.enabled` (false
 * by default), so a false there was no choice; a true was one, and stays one (on a machine where the
 * sandbox fails, a chosen sandbox refuses to run rather than running without it).
 */
function fromV1(document: Document): Document {
  const sandbox = document.sandbox;
  if (typeof sandbox !== 'object' || sandbox === null || Array.isArray(sandbox)) return { ...document, version: 2 };
  const old = sandbox as Document;
  return { ...document, version: 2, sandbox: { ...old, chosen: old.enabled === true } };
}

/**
 * v0 is a file with no `version` field: written by hand, often by someone used to Open Interpreter, whose
 * snake_case names are accepted for the fields it shares with this app. Anything else unknown is left for
 * the schema check to report and drop (an `api_key` included: keys belong in the keychain).
 */
function fromV0(document: Document): Document {
  const renames: Record<string, string> = {
    api_base: 'baseUrl',
    auto_run: 'autoRun',
    context_window: 'contextWindow',
    max_tokens: 'maxOutputTokens',
    custom_instructions: 'customInstructions',
  };
  const next: Document = {};
  for (const [key, value] of Object.entries(document)) {
    const renamed = renames[key];
    // The current name wins when a hand-written file has both spellings.
    if (renamed && Object.hasOwn(document, renamed)) continue;
    next[renamed ?? key] = value;
  }
  next.version = 1;
  return next;
}

export type MigrationResult =
  | { status: 'current' | 'migrated'; document: Document; from: number }
  /** Written by a newer build: kept as is, so the fields this build knows can still be used. */
  | { status: 'newer'; document: Document; from: number }
  /** `version` is not a whole number: read as the current version, and reported. */
  | { status: 'invalid-version'; document: Document };

export function migrateSettingsDocument(document: Document): MigrationResult {
  const version = document.version ?? 0;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    return { status: 'invalid-version', document: { ...document, version: SETTINGS_VERSION } };
  }
  if (version > SETTINGS_VERSION) return { status: 'newer', document, from: version };
  let current = document;
  for (let v = version; v < SETTINGS_VERSION; v++) {
    const step = steps[v];
    if (!step) throw new Error(`no settings migration from v${v} to v${v + 1}`);
    current = step(current);
  }
  return { status: version === SETTINGS_VERSION ? 'current' : 'migrated', document: current, from: version };
}

/** For the test that keeps the table complete when the version is bumped. */
export const migrationSteps: Readonly<Record<number, unknown>> = steps;
