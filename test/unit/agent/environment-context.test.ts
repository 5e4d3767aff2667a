import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSettings } from '@contract';
import { afterEach, describe, expect, it } from 'vitest';
import { EnvironmentContext, type EnvironmentSources } from '../../../src-main/core/agent/environment-context';
import { installsPackages } from '../../../src-main/core/agent/python-packages';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function counting(packages: string[][]) {
  const calls = { languages: 0, packages: 0 };
  const sources: EnvironmentSources = {
    languages: async () => {
      calls.languages++;
      return [
        { name: 'python', aliases: [], available: true, version: '3.11.2', persistent: true },
        { name: 'ruby', aliases: [], available: false, version: null, persistent: true },
      ];
    },
    python: async () => ({ command: '/usr/bin/python3', packages: packages[Math.min(calls.packages++, packages.length - 1)] ?? [] }),
    now: () => new Date('2026-03-04T05:06:00Z'),
  };
  return { calls, sources };
}

describe('EnvironmentContext', () => {
  it('describes the machine, the workspace and what is installed', async () => {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'oi-env-'));
    dirs.push(ws);
    mkdirSync(path.join(ws, 'data'));
    writeFileSync(path.join(ws, 'notes.txt'), 'x');
    mkdirSync(path.join(ws, '.oi'));
    const { sources } = counting([['numpy', 'PIL']]);
    const text = await new EnvironmentContext(sources).render(ws, { ...defaultSettings.exec });
    expect(text).toContain(`Workspace (the current directory of every session): ${ws}`);
    expect(text).toContain('Workspace contents (top level): data/, notes.txt');
    expect(text).not.toContain('.oi');
    expect(text).toContain('Languages you can run: python 3.11.2 (not installed: ruby)');
    expect(text).toContain('Python packages installed (/usr/bin/python3), import names: numpy, PIL');
    expect(text).toMatch(/Date and time: 2026-03-0\d/);
    expect(text).toContain(`Node.js (the app's own): ${process.version}`);
  });

  it('detects runtimes and packages once, lists packages again after an install, and sees new files', async () => {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'oi-env-'));
    dirs.push(ws);
    const { calls, sources } = counting([['numpy'], ['numpy', 'requests']]);
    const env = new EnvironmentContext(sources);
    await env.render(ws, defaultSettings.exec);
    await env.render(ws, defaultSettings.exec);
    expect(calls).toEqual({ languages: 1, packages: 1 });

    env.noteRun('print("no install here")');
    expect(await env.render(ws, defaultSettings.exec)).not.toContain('requests');
    env.noteRun('import subprocess\nsubprocess.run(["pip", "install", "requests"])');
    const after = await env.render(ws, defaultSettings.exec);
    expect(after).toContain('numpy, requests');
    expect(calls.packages).toBe(2);

    writeFileSync(path.join(ws, 'report.csv'), 'a,b');
    expect(await env.render(ws, defaultSettings.exec)).toContain('report.csv');
  });

  it('recognizes the common ways of installing Python packages', () => {
    for (const code of [
      'pip install pandas',
      '!pip3 install -q x',
      'uv pip install y',
      'uv add z',
      'conda install -y numpy',
      'poetry add httpx',
    ]) {
      expect(installsPackages(code)).toBe(true);
    }
    expect(installsPackages('print("pip")')).toBe(false);
  });
});
