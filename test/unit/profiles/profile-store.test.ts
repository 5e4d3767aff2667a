import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  deleteProfile,
  listProfiles,
  profilePatch,
  profilesFolder,
  readProfile,
  saveProfile,
} from '../../../src-main/core/profiles/profile-store';
import { useTempDirs } from '../../support/temp-dirs';

// Profiles (docs/agent.md#profiles) are files of the data folder: saved, listed, read back, deleted,
// and every bad input an error that names the profile, the file and what is wrong.

const dataDir = useTempDirs('oi-profiles-');

describe('profile store', () => {
  it('saves, lists, reads back and deletes profiles in the data folder, and turns one into settings', () => {
    const data = dataDir();
    expect(listProfiles(data)).toEqual([]);
    saveProfile(data, 'analyst', { model: 'gpt-4o-mini', instructions: 'Plots in SVG.', autoRun: true, sandbox: true });
    saveProfile(data, 'careful', { autoRun: false, hooks: { beforeCell: [{ command: '/bin/true' }] } });
    expect(listProfiles(data)).toEqual(['analyst', 'careful']);
    const file = path.join(profilesFolder(data), 'analyst.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readProfile(data, 'analyst')).toEqual({ model: 'gpt-4o-mini', instructions: 'Plots in SVG.', autoRun: true, sandbox: true });
    expect(profilePatch(readProfile(data, 'analyst'))).toEqual({
      model: 'gpt-4o-mini',
      customInstructions: 'Plots in SVG.',
      autoRun: true,
      sandbox: { enabled: true, chosen: true },
    });
    deleteProfile(data, 'careful');
    expect(listProfiles(data)).toEqual(['analyst']);
  });

  it('names the problem: an unknown profile, a name that is a path, a file that is not JSON, a wrong field, a link', () => {
    const data = dataDir();
    saveProfile(data, 'analyst', { model: 'm' });
    expect(() => readProfile(data, 'nope')).toThrow(/there is no profile "nope" \(no .*profiles\/nope\.json\); the profiles are: analyst/);
    expect(() => readProfile(data, '../settings')).toThrow(/"\.\.\/settings" is not a profile name/);
    const folder = profilesFolder(data);
    writeFileSync(path.join(folder, 'broken.json'), '{"model": ');
    expect(() => readProfile(data, 'broken')).toThrow(/profile "broken" \(.*broken\.json\) is not JSON/);
    writeFileSync(path.join(folder, 'typo.json'), JSON.stringify({ modle: 'x', autoRun: 'yes' }));
    expect(() => readProfile(data, 'typo')).toThrow(/profile "typo" \(.*typo\.json\): .*(modle|autoRun)/);
    // A link is not followed: it could name any file the app can read.
    const outside = path.join(data, 'outside.json');
    writeFileSync(outside, JSON.stringify({ model: 'from-elsewhere' }));
    symlinkSync(outside, path.join(folder, 'linked.json'));
    expect(() => readProfile(data, 'linked')).toThrow(/profile "linked" .* is not a plain file/);
    // A bad save loses nothing: the file on disk is as it was.
    expect(() => saveProfile(data, 'analyst', { model: '' })).toThrow(/profile "analyst"/);
    expect(JSON.parse(readFileSync(path.join(folder, 'analyst.json'), 'utf8'))).toEqual({ model: 'm' });
    mkdirSync(path.join(folder, 'folder.json'));
    expect(() => readProfile(data, 'folder')).toThrow(/is not a plain file/);
  });
});
