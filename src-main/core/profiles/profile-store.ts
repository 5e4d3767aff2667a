import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describeIssues, Profile, ProfileName, SettingsPatch } from '@contract';

/**
 * Profiles (docs/agent.md#profiles), as classic Open Interpreter had them (`interpreter --profile`): a
 * named set of settings — model, instructions, auto-run, sandbox, hooks — chosen for a run with
 * `oi --profile NAME`. Each is `<data folder>/profiles/<name>.json`: the data folder is sealed inside
 * the sandbox and never a workspace, so code the app runs cannot write one, and a workspace has no way
 * to define or change a profile (a name is looked up in that folder only, never a path).
 */

export { Profile, ProfileName } from '@contract';

/** Bigger files are refused unread: a profile is a few settings. */
const MAX_PROFILE_BYTES = 256 * 1024;

export class ProfileError extends Error {}

export function profilesFolder(dataDir: string): string {
  return path.join(dataDir, 'profiles');
}

function fileOf(dataDir: string, name: string): string {
  const checked = ProfileName.safeParse(name);
  if (!checked.success) throw new ProfileError(`"${name}" is not a profile name: ${describeIssues(checked.error.issues)}`);
  return path.join(profilesFolder(dataDir), `${checked.data}.json`);
}

/** The names of the profiles in the data folder, sorted. */
export function listProfiles(dataDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(profilesFolder(dataDir));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.json'))
    .map((n) => n.slice(0, -'.json'.length))
    .filter((n) => ProfileName.safeParse(n).success)
    .sort();
}

/** Reads profile `name`; a missing profile or a bad file is an error naming the problem and the file. */
export function readProfile(dataDir: string, name: string): Profile {
  const file = fileOf(dataDir, name);
  let st;
  try {
    st = lstatSync(file);
  } catch {
    const known = listProfiles(dataDir);
    throw new ProfileError(
      `there is no profile "${name}" (no ${file}); ${known.length > 0 ? `the profiles are: ${known.join(', ')}` : 'there are no profiles yet'}`,
    );
  }
  // Not followed: a link there could name any file the app can read.
  if (!st.isFile()) throw new ProfileError(`profile "${name}" (${file}) is not a plain file`);
  if (st.size > MAX_PROFILE_BYTES) throw new ProfileError(`profile "${name}" (${file}) is larger than ${MAX_PROFILE_BYTES / 1024} KB`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ProfileError(`profile "${name}" (${file}) is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = Profile.safeParse(json);
  if (!parsed.success) throw new ProfileError(`profile "${name}" (${file}): ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}

/** Writes profile `name` (checked first), replacing the file whole. */
export function saveProfile(dataDir: string, name: string, profile: Profile): void {
  const file = fileOf(dataDir, name);
  const parsed = Profile.safeParse(profile);
  if (!parsed.success) throw new ProfileError(`profile "${name}": ${describeIssues(parsed.error.issues)}`);
  mkdirSync(profilesFolder(dataDir), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(parsed.data, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

export function deleteProfile(dataDir: string, name: string): void {
  rmSync(fileOf(dataDir, name), { force: true });
}

/** The settings a profile sets, as a patch over the saved settings (the run's flags go on top). */
export function profilePatch(profile: Profile): SettingsPatch {
  const patch: Record<string, unknown> = {};
  if (profile.provider !== undefined) patch.provider = profile.provider;
  if (profile.model !== undefined) patch.model = profile.model;
  if (profile.baseUrl !== undefined) patch.baseUrl = profile.baseUrl;
  if (profile.instructions !== undefined) patch.customInstructions = profile.instructions;
  if (profile.autoRun !== undefined) patch.autoRun = profile.autoRun;
  if (profile.sandbox !== undefined) patch.sandbox = { enabled: profile.sandbox, chosen: true };
  if (profile.hooks !== undefined) patch.hooks = profile.hooks;
  return SettingsPatch.parse(patch);
}
