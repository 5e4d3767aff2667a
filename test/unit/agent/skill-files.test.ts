import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSkills, type FoundSkill } from '../../../src-main/core/agent/skills/skill-discovery';
import { parseSkillFile } from '../../../src-main/core/agent/skills/skill-front-matter';
import { installSkill, MAX_INSTALL_BYTES } from '../../../src-main/core/agent/skills/skill-install';
import { SKILLS_PROMPT_BYTES, skillsPromptSection } from '../../../src-main/core/agent/skills/skill-prompt';

// SKILL.md files on disk (docs/agent.md#skills): bad front matter makes a broken skill with a reason
// naming the problem (never a crash, never a guess), a link or a FIFO is never read, one name is one
// skill, the prompt's list is bounded with a note, and installing copies a folder without its links.

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/skills');
const skill = (name: string, description: string, body = 'Body.') => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

describe('SKILL.md front matter', () => {
  it('names the problem of each bad front matter', () => {
    const cases: Array<[string, RegExp]> = [
      ['# no front matter\n', /does not start with front matter/],
      ['---\nname: a\ndescription: b\n', /no closing "---" line/],
      ['---\nname: [a, b\ndescription: x\n---\n', /not valid YAML/],
      ['---\nname: a\nname: b\ndescription: x\n---\n', /not valid YAML: Map keys must be unique/],
      ['---\n- a\n- b\n---\n', /not a set of "key: value" lines/],
      ['---\ndescription: x\n---\n', /has no name/],
      ['---\nname: Bad_Name\ndescription: x\n---\n', /"Bad_Name" is not lowercase letters, digits and single hyphens/],
      ['---\nname: ok\n---\n', /has no description/],
      [`---\nname: ok\ndescription: ${'d'.repeat(1100)}\n---\n`, /the description is 1100 characters; the format allows 1024/],
      ['---\nbase: &a x\nname: *a\ndescription: y\n---\n', /not valid YAML/],
    ];
    for (const [text, reason] of cases) {
      const parsed = parseSkillFile(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) expect(parsed.reason, text).toMatch(reason);
    }
    expect(
      parseSkillFile(
        '\uFEFF---\r\nname: pdf-tools\r\ndescription: >\r\n  Reads PDFs.\r\n  Use for PDFs.\r\nlicense: MIT\r\n---\r\n# PDF\r\n',
      ),
    ).toEqual({
      ok: true,
      name: 'pdf-tools',
      description: 'Reads PDFs. Use for PDFs.',
      body: '# PDF',
    });
  });
});

describe('skills on disk', () => {
  let root: string;
  let dataDir: string;
  let workspace: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oi-skill-files-')));
    dataDir = path.join(root, 'data');
    workspace = path.join(root, 'ws');
    const mine = path.join(dataDir, 'skills');
    mkdirSync(path.join(mine, 'good'), { recursive: true });
    writeFileSync(path.join(mine, 'good', 'SKILL.md'), skill('shared-name', 'Mine.'));
    mkdirSync(path.join(mine, 'bad-yaml'));
    writeFileSync(path.join(mine, 'bad-yaml', 'SKILL.md'), '---\nname: x\ndescription: [unclosed\n---\n');
    mkdirSync(path.join(mine, 'empty'));
    mkdirSync(path.join(mine, 'fifo'));
    execFileSync('mkfifo', [path.join(mine, 'fifo', 'SKILL.md')]);
    writeFileSync(path.join(mine, 'stray-file.md'), 'not a skill folder');
    mkdirSync(path.join(workspace, '.agents', 'skills', 'theirs'), { recursive: true });
    writeFileSync(path.join(workspace, '.agents', 'skills', 'theirs', 'SKILL.md'), skill('shared-name', 'Theirs.'));
    mkdirSync(path.join(workspace, '.claude', 'skills', 'compat'), { recursive: true });
    writeFileSync(path.join(workspace, '.claude', 'skills', 'compat', 'SKILL.md'), skill('compat', 'From .claude/skills.'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists broken skills with the reason, never waits on a FIFO, and keeps the person’s own when a workspace reuses its name', async () => {
    const found = await findSkills(workspace, { dataDir, trusted: () => [workspace] });
    const byFolder = (folder: string): FoundSkill | undefined => found.skills.find((s) => s.folder.endsWith(folder));
    expect(byFolder('/bad-yaml')?.broken).toMatch(/^SKILL\.md: the front matter is not valid YAML/);
    expect(byFolder('/empty')?.broken).toMatch(/has no SKILL\.md$/);
    expect(byFolder('/fifo')?.broken).toMatch(/fifo\/SKILL.md is not a file$/);
    expect(byFolder('/good')).toMatchObject({ name: 'shared-name', source: 'user', broken: null });
    expect(byFolder('/theirs')?.broken).toMatch(
      /another skill is already called "shared-name" .*data\/skills\/good\), and that one is used/,
    );
    expect(byFolder('/compat')).toMatchObject({ name: 'compat', source: 'workspace', trusted: true, broken: null });
    expect(found.skills.some((s) => s.folder.endsWith('stray-file.md'))).toBe(false);
    const prompt = skillsPromptSection(found.skills, true);
    expect(prompt).toContain('- shared-name: Mine.');
    expect(prompt).not.toContain('Theirs.');
    expect(prompt).not.toContain('bad-yaml');
    // Without tool calling there is no load_skill: the list gives each SKILL.md's path, read with code.
    expect(skillsPromptSection(found.skills, false)).toContain(
      `- compat: From .claude/skills. (${path.join(workspace, '.claude', 'skills', 'compat', 'SKILL.md')})`,
    );
    expect(skillsPromptSection(found.skills, false)).not.toContain('load_skill');
  });

  it('bounds the list in the prompt and says how many were left out', () => {
    const many: FoundSkill[] = Array.from({ length: 40 }, (_, i) => ({
      name: `skill-${i}`,
      description: 'd'.repeat(1000),
      source: 'user',
      folder: `/s/${i}`,
      trusted: true,
      broken: null,
      root: '/s',
      base: [String(i)],
      body: '',
      cut: false,
    }));
    const prompt = skillsPromptSection(many, true);
    expect(Buffer.byteLength(prompt)).toBeLessThan(SKILLS_PROMPT_BYTES + 1024);
    expect(prompt).toMatch(/\[2\d more skill\(s\) left out: the list is over the 16 KB the app gives it\]/);
  });

  it('installs a folder by the name its SKILL.md gives, keeping a script’s executable bit, and refuses links and too much', async () => {
    const source = path.join(root, 'chart-source');
    cpSync(path.join(FIXTURES, 'chart-maker'), source, { recursive: true });
    execFileSync('chmod', ['+x', path.join(source, 'scripts', 'bar_chart.py')]);
    expect(await installSkill(dataDir, source)).toBe('chart-maker');
    const installed = path.join(dataDir, 'skills', 'chart-maker');
    expect(statSync(path.join(installed, 'scripts', 'bar_chart.py')).mode & 0o111).not.toBe(0);
    await expect(installSkill(dataDir, source)).rejects.toThrow(/a skill called "chart-maker" is already installed/);

    const linked = path.join(root, 'linked-source');
    cpSync(path.join(FIXTURES, 'brand-colors'), linked, { recursive: true });
    symlinkSync(path.join(os.homedir(), '.ssh'), path.join(linked, 'reference', 'keys'));
    await expect(installSkill(dataDir, linked)).rejects.toThrow(/reference\/keys is a symbolic link; a skill with links is not installed/);

    const huge = path.join(root, 'huge-source');
    cpSync(path.join(FIXTURES, 'brand-colors'), huge, { recursive: true });
    writeFileSync(path.join(huge, 'data.bin'), Buffer.alloc(MAX_INSTALL_BYTES + 1));
    await expect(installSkill(dataDir, huge)).rejects.toThrow(/larger than 20 MB/);
    await expect(installSkill(dataDir, path.join(root, 'ws'))).rejects.toThrow(/has no SKILL\.md, so it is not a skill/);
    // Nothing half-copied is left behind.
    expect(existsSync(path.join(dataDir, 'skills', 'brand-colors'))).toBe(false);
    expect(readdirSync(path.join(dataDir, 'skills')).filter((n) => n.startsWith('.installing-'))).toEqual([]);
  });

  it('installs a .zip made by zip -r (the skill in one folder at its top), keeping a script’s executable bit', async () => {
    const source = path.join(root, 'zip-source', 'charts');
    cpSync(path.join(FIXTURES, 'chart-maker'), source, { recursive: true });
    writeFileSync(path.join(source, 'SKILL.md'), skill('zipped-charts', 'Charts, from a zip.'));
    execFileSync('chmod', ['+x', path.join(source, 'scripts', 'bar_chart.py')]);
    const zip = path.join(root, 'charts.zip');
    execFileSync('/usr/bin/zip', ['-qr', zip, 'charts'], { cwd: path.dirname(source) });
    expect(await installSkill(dataDir, zip)).toBe('zipped-charts');
    const installed = path.join(dataDir, 'skills', 'zipped-charts');
    expect(readdirSync(installed).sort()).toEqual(['SKILL.md', 'scripts']);
    expect(statSync(path.join(installed, 'scripts', 'bar_chart.py')).mode & 0o111).not.toBe(0);
    writeFileSync(path.join(root, 'notes.txt'), 'not a zip');
    await expect(installSkill(dataDir, path.join(root, 'notes.txt'))).rejects.toThrow(/notes\.txt is a file but not a \.zip/);
    writeFileSync(path.join(root, 'fake.zip'), 'not a zip either');
    await expect(installSkill(dataDir, path.join(root, 'fake.zip'))).rejects.toThrow(/fake\.zip: it is not a zip file/);
  });
});
