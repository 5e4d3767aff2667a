import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runOi } from '../../support/cli-process';
import { useCliRun } from '../../support/cli-run';

// `oi -m` prints a skill's use as one line — "⚙ Using skill brand-colors" — not the call's JSON
// (docs/agent.md#skills), with the reason when the call was refused; the skill comes from the data
// folder's skills/ as in the desktop app, put there by `oi skills install` from a .zip; `oi trust`
// lets a repository's AGENTS.md in, as the window's *Trust this folder* does.

const cli = useCliRun();

describe('oi -m with a skill', () => {
  it('prints “Using skill” and “Reading … of skill” lines, and a refused call with its reason', async () => {
    const { llm, dir } = await cli.start('oi-cli-skill-', { models: ['skilled'] });
    const env = cliEnv(dir);
    const zip = path.join(dir, 'brand-colors.zip');
    execFileSync('/usr/bin/zip', ['-qr', zip, 'brand-colors'], { cwd: path.resolve(import.meta.dirname, '../../fixtures/skills') });
    const installed = await runOi(['skills', 'install', zip], env);
    expect(installed).toMatchObject({
      code: 0,
      stdout: `Installed the skill brand-colors in ${path.join(dir, 'skills', 'brand-colors')}.\n`,
    });
    expect((await runOi(['skills', 'install', zip], env)).stderr).toMatch(/^The skill was not installed: a skill called "brand-colors"/);
    // A repository's AGENTS.md counts once `oi trust` is given a folder inside it: the root is trusted.
    const repo = path.join(dir, 'repo');
    const ws = path.join(repo, 'ws');
    mkdirSync(ws, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    writeFileSync(path.join(repo, 'AGENTS.md'), 'REPO-RULES-MARKER\n');
    const trusted = await runOi(['trust', ws], env);
    expect(trusted).toMatchObject({
      code: 0,
      stdout: `Trusted ${repo} (the repository ${ws} is in): its AGENTS.md, skills, hooks and saved commands are used from now on.\n`,
    });
    expect(JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8'))).toMatchObject({ trustedFolders: [repo] });
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 's1', name: 'load_skill', arguments: { name: 'brand-colors' } }] },
      { kind: 'tool', calls: [{ id: 's2', name: 'read_skill_file', arguments: { name: 'brand-colors', path: 'reference/colors.md' } }] },
      { kind: 'tool', calls: [{ id: 's3', name: 'load_skill', arguments: { name: 'no-such-skill' } }] },
      { kind: 'text', text: 'Primary is #0b5fff.' },
    );
    const args = ['--provider', 'openai-compatible', '--model', 'skilled', '--base-url', llm.openaiBaseUrl];
    const result = await runOi([...args, '--workspace', ws, '-m', 'which colour?'], env);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('⚙ Using skill brand-colors\n');
    expect(result.stdout).toContain('⚙ Reading reference/colors.md of skill brand-colors\n');
    expect(result.stdout).toContain(
      '⚙ Using skill no-such-skill: Error: there is no skill called "no-such-skill"; the skills are "brand-colors"',
    );
    // The call's arguments are not printed as code.
    expect(result.stdout).not.toContain('{"name":"brand-colors"}');
    expect(result.stdout).toContain('Primary is #0b5fff.');
    const turn = llm.requests.filter((r) => String(JSON.stringify(r.body)).includes('which colour?'));
    expect(JSON.stringify(turn[1]?.body)).toContain('BRAND-COLORS-BODY');
    expect(JSON.stringify(turn[0]?.body)).toContain('REPO-RULES-MARKER');
  });
});
