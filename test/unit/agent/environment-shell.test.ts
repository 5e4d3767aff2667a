import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { defaultSettings, type ExecSettings } from '@contract';
import { afterAll, describe, expect, it } from 'vitest';
import { EnvironmentContext, type EnvironmentSources } from '../../../src-main/core/agent/environment-context';
import type { LanguageInfo } from '../../../src-main/core/exec';

// The line that tells the model which shell a `shell` cell runs in (the engine's rule, shell-choice.ts).

const workspace = mkdtempSync(path.join(os.tmpdir(), 'oi-env-shell-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

function sources(loginShell: string | null, zshInstalled: boolean): EnvironmentSources {
  const languages: LanguageInfo[] = [
    { name: 'shell', aliases: ['bash', 'sh'], available: true, version: '5.2.15', persistent: true },
    { name: 'zsh', aliases: ['zsh'], available: zshInstalled, version: zshInstalled ? '5.9' : null, persistent: true },
  ];
  return {
    languages: async () => languages,
    python: async () => null,
    now: () => new Date('2026-03-04T05:06:00Z'),
    loginShell: () => loginShell,
  };
}

async function shellLine(loginShell: string | null, zshInstalled: boolean, exec: Partial<ExecSettings> = {}): Promise<string> {
  const text = await new EnvironmentContext(sources(loginShell, zshInstalled)).render(workspace, { ...defaultSettings.exec, ...exec });
  return text.split('\n').find((line) => line.startsWith('Shell: ')) ?? '(no shell line)';
}

describe.runIf(process.platform !== 'win32')('the shell line of the environment context', () => {
  it('names zsh for `shell` cells when it is the login shell and installed', async () => {
    const line = await shellLine('/bin/zsh', true);
    expect(line).toContain("`shell` cells run in zsh (the user's login shell is /bin/zsh)");
    expect(line).toContain('`bash`/`sh` cells run in bash and `zsh` cells in zsh');
    expect(line).toContain('separate sessions');
  });

  it('names bash for a bash or other login shell, and when zsh is missing', async () => {
    expect(await shellLine('/bin/bash', true)).toContain('`shell` cells run in bash');
    expect(await shellLine('/usr/bin/fish', true)).toContain('`shell` cells run in bash');
    const missing = await shellLine('/bin/zsh', false);
    expect(missing).toContain('`shell` cells run in bash');
    expect(missing).toContain('`zsh` cells in bash too (zsh is not installed)');
  });

  it('follows the exec.shell setting and a SHELL set in settings.env', async () => {
    expect(await shellLine('/bin/zsh', true, { shell: 'bash' })).toContain('`shell` cells run in bash (set in Settings)');
    expect(await shellLine('/bin/bash', true, { shell: 'zsh' })).toContain('`shell` cells run in zsh (set in Settings)');
    expect(await shellLine('/bin/bash', true, { env: { SHELL: '/usr/local/bin/zsh' } })).toContain('`shell` cells run in zsh');
  });
});
