import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSettings } from '@contract';
import { afterEach, describe, expect, it } from 'vitest';
import { EnvironmentContext, type EnvironmentSources } from '../../../src-main/core/agent/environment-context';
import { fileEnvironmentSnapshot } from '../../../src-main/core/agent/environment-snapshot';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Detection that finishes only when the test says so, reporting the Python version it is given. */
function gatedSources(version: string) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const started = { languages: 0, python: 0 };
  const sources: EnvironmentSources = {
    languages: async () => {
      started.languages++;
      await gate;
      return [{ name: 'python', aliases: [], available: true, version, persistent: true }];
    },
    python: async () => {
      started.python++;
      await gate;
      return { command: '/usr/bin/python3', packages: [`pkg_${version.replace(/\./g, '_')}`] };
    },
    now: () => new Date('2026-03-04T05:06:00Z'),
  };
  return { sources, started, release: () => release() };
}

/**
 * A data folder in which a first process (nothing stored, so it waited for detection) found Python
 * 3.11.2 and stored it; `later(n)` is that file as a process n minutes on reads it.
 */
async function afterAFirstProcess() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-envsnap-'));
  dirs.push(dir);
  const file = path.join(dir, 'environment-cache.json');
  const exec = { ...defaultSettings.exec };
  const first = gatedSources('3.11.2');
  const rendering = new EnvironmentContext(first.sources, fileEnvironmentSnapshot(file)).render(dir, exec);
  first.release();
  expect(await rendering).toContain('python 3.11.2');
  return { dir, exec, later: (minutes: number) => fileEnvironmentSnapshot(file, () => Date.now() + minutes * 60_000) };
}

describe('the environment snapshot between processes', () => {
  it('answers a new process from what the last one found, then from fresh detection', async () => {
    const { dir, exec, later } = await afterAFirstProcess();

    // Second process, 11 minutes later (past the runtimes' 10-minute time-to-live): detection has not
    // finished (the gate is shut), yet the first call is answered.
    const second = gatedSources('3.12.0');
    const two = new EnvironmentContext(second.sources, later(11));
    const text = await two.render(dir, exec);
    expect(text).toContain('python 3.11.2');
    expect(text).toContain('pkg_3_11_2');
    // Detection behind a stored answer waits until the first model call is on its way.
    expect(second.started).toEqual({ languages: 0, python: 0 });
    two.refreshStored();
    await expect.poll(() => second.started).toEqual({ languages: 1, python: 1 });
    second.release();
    await expect.poll(async () => two.render(dir, exec)).toContain('python 3.12.0');
    expect(await two.render(dir, exec)).toContain('pkg_3_12_0');

    // After an install the stored answer is never used again in this process.
    two.noteRun('apt-get install ruby');
    expect(await two.render(dir, exec)).toContain('python 3.12.0');
  });

  it('takes what a process found within the time-to-live as found: no detection runs until an install', async () => {
    const { dir, exec, later } = await afterAFirstProcess();

    // A process 9 minutes later: answered from the file, and nothing detected, even after its first call.
    const second = gatedSources('3.12.0');
    second.release();
    const two = new EnvironmentContext(second.sources, later(9));
    const text = await two.render(dir, exec);
    expect(text).toContain('python 3.11.2');
    expect(text).toContain('pkg_3_11_2');
    two.refreshStored();
    expect(await two.render(dir, exec)).toContain('python 3.11.2');
    expect(second.started).toEqual({ languages: 0, python: 0 });
    // An install in this process: detected again, and never answered from the file after.
    two.noteRun('apt-get install ruby');
    expect(await two.render(dir, exec)).toContain('python 3.12.0');
    expect(second.started).toEqual({ languages: 1, python: 1 });
  });

  it('ignores a snapshot taken with another PATH', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-envsnap-'));
    dirs.push(dir);
    const file = path.join(dir, 'environment-cache.json');
    const snapshot = fileEnvironmentSnapshot(file);
    snapshot.save('k', { languages: [{ name: 'python', aliases: [], available: true, version: '1.0', persistent: true }] });
    expect(fileEnvironmentSnapshot(file).languages('k')?.[0]?.version).toBe('1.0');
    const before = process.env.PATH;
    process.env.PATH = `/elsewhere:${before ?? ''}`;
    try {
      expect(fileEnvironmentSnapshot(file).languages('k')).toBeNull();
    } finally {
      process.env.PATH = before;
    }
  });

  it('never makes its folder again: detection that ends after the app closed and its data folder went leaves nothing', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-envsnap-'));
    dirs.push(dir);
    const data = path.join(dir, 'data');
    mkdirSync(data);
    const snapshot = fileEnvironmentSnapshot(path.join(data, 'environment-cache.json'));
    snapshot.save('/ws', { python: null });
    expect(existsSync(path.join(data, 'environment-cache.json'))).toBe(true);
    rmSync(data, { recursive: true });
    snapshot.save('/ws', { languages: [] });
    expect(existsSync(data)).toBe(false);
  });
});
