// The part of the system prompt issue 28 added, measured for `npm run bench -- context`: reading the
// AGENTS.md tree (30 KB over three folders of a repository) and 50 skills (25 the person's, 25 a
// trusted workspace's), and building the prompt from them — what every model call now pays before it
// is sent. Target: 10 ms warm. The anchor, in the same run and alternating with it: reading the same
// 53 files with plain fs.readFile (following links, no parsing, no bounds), so the ratio is the cost
// of the no-follow walk, the YAML front matter and the prompt sections over the bytes themselves.

import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadInstructions } from '../src-main/core/agent/project-instructions';
import { findSkills } from '../src-main/core/agent/skills/skill-discovery';
import { skillsPromptSection } from '../src-main/core/agent/skills/skill-prompt';
import { buildSystemPrompt } from '../src-main/core/agent/system-prompt';
import { summarize, type Measure } from './stats';

const SKILLS = 50;
const RUNS = 200;

export interface ContextFilesResult {
  skills: number;
  agentsMdBytes: number;
  promptChars: number;
  ours: Measure;
  anchorPlainRead: Measure;
  ratio: number;
}

export async function measureContextFiles(base: string, environment: string): Promise<ContextFilesResult> {
  const repo = join(base, 'repo');
  const workspace = join(repo, 'packages', 'analysis');
  const dataDir = join(base, 'data');
  await mkdir(workspace, { recursive: true });
  execFileSync('git', ['init', '-q', repo]);
  const files: string[] = [];
  const rules = (label: string) =>
    Array.from({ length: 200 }, (_, i) => `- ${label} rule ${i}: keep it short.\n`)
      .join('')
      .slice(0, 10 * 1024);
  for (const [folder, name] of [
    [repo, 'AGENTS.md'],
    [join(repo, 'packages'), 'AGENTS.md'],
    [workspace, 'CLAUDE.md'],
  ] as const) {
    await writeFile(join(folder, name), rules(name));
    files.push(join(folder, name));
  }
  for (let i = 0; i < SKILLS; i++) {
    const mine = i % 2 === 0;
    const folder = mine ? join(dataDir, 'skills', `skill-${i}`) : join(workspace, '.agents', 'skills', `skill-${i}`);
    await mkdir(join(folder, 'scripts'), { recursive: true });
    const text = `---\nname: skill-${i}\ndescription: Does task ${i} with the team's conventions; use when asked for task ${i}.\nlicense: MIT\n---\n\n# Skill ${i}\n\n${'Step by step. '.repeat(60)}\n`;
    await writeFile(join(folder, 'SKILL.md'), text);
    await writeFile(join(folder, 'scripts', 'run.py'), 'print(1)\n');
    files.push(join(folder, 'SKILL.md'));
  }
  const trusted = () => [repo];
  let promptChars = 0;
  const ours = async (): Promise<void> => {
    const [instructions, found] = await Promise.all([
      loadInstructions(workspace, { userFile: join(dataDir, 'AGENTS.md'), trusted }),
      findSkills(workspace, { dataDir, trusted }),
    ]);
    const prompt = buildSystemPrompt({
      environment,
      customInstructions: '',
      projectInstructions: instructions.prompt,
      skills: skillsPromptSection(found.skills, true),
      toolCalling: true,
      droppedTurns: 0,
    });
    promptChars = prompt.length;
  };
  const anchor = async (): Promise<void> => {
    await Promise.all(files.map((f) => readFile(f, 'utf8')));
  };
  for (let i = 0; i < 20; i++) await Promise.all([ours(), anchor()]);
  const mine: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const [fn, into] of i % 2 === 0
      ? ([
          [ours, mine],
          [anchor, plain],
        ] as const)
      : ([
          [anchor, plain],
          [ours, mine],
        ] as const)) {
      const t = performance.now();
      await fn();
      into.push(performance.now() - t);
    }
  }
  const a = summarize(mine);
  const b = summarize(plain);
  return { skills: SKILLS, agentsMdBytes: 30 * 1024, promptChars, ours: a, anchorPlainRead: b, ratio: a.median / b.median };
}
