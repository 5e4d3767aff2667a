import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { slashCommandOf } from '../../../src-preload/contract/slash-command';
import { expandCommand, findSavedCommands, splitWords, usableCommand } from '../../../src-main/core/agent/saved-commands';

// Saved commands on disk (docs/agent.md#saved-commands): the arguments fill $ARGUMENTS and $1…$9 as
// Claude Code, Codex and OpenCode fill them; the person's own win over a workspace's of the same name;
// a link, a FIFO or bad front matter makes a broken command, named; an untrusted workspace's are
// listed but not read.

describe('saved commands', () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oi-commands-')));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('fills $ARGUMENTS, $1…$9 (quotes group words) and $$, and adds the arguments to a command without placeholders', () => {
    expect(splitWords(`42 "very high" 'a b' c`)).toEqual(['42', 'very high', 'a b', 'c']);
    expect(expandCommand('Review PR #$1 with priority $2; all: $ARGUMENTS; missing: [$3]; cost $$5', '42 "very high"')).toBe(
      'Review PR #42 with priority very high; all: 42 "very high"; missing: []; cost $5',
    );
    expect(expandCommand('Summarise the changes.', 'in French')).toBe('Summarise the changes.\n\nin French');
    expect(expandCommand('Summarise the changes.', '  ')).toBe('Summarise the changes.');
    expect(slashCommandOf('/review 42 high')).toEqual({ name: 'review', args: '42 high' });
    expect(slashCommandOf('/tmp/x is full')).toBeNull();
    expect(slashCommandOf('review 42')).toBeNull();
  });

  it('finds the person’s and a trusted workspace’s commands, names broken ones, and does not read an untrusted one', async () => {
    const dataDir = path.join(root, 'data');
    const mine = path.join(dataDir, 'commands');
    mkdirSync(mine, { recursive: true });
    writeFileSync(
      path.join(mine, 'review.md'),
      '---\ndescription: Review a PR\nargument-hint: <pr> [priority]\n---\nReview PR #$1 ($2).\n',
    );
    writeFileSync(path.join(mine, 'plain.md'), '# Tidy up\nTidy the folder.\n');
    writeFileSync(path.join(mine, 'bad.md'), '---\ndescription: [unclosed\n---\nx\n');
    writeFileSync(path.join(mine, 'not a name.md'), 'x');
    symlinkSync('/etc/passwd', path.join(mine, 'linked.md'));
    execFileSync('mkfifo', [path.join(mine, 'fifo.md')]);
    const workspace = path.join(root, 'ws');
    mkdirSync(path.join(workspace, '.agents', 'commands'), { recursive: true });
    writeFileSync(path.join(workspace, '.agents', 'commands', 'review.md'), 'THEIR-REVIEW');
    writeFileSync(path.join(workspace, '.agents', 'commands', 'deploy.md'), 'Deploy $ARGUMENTS');

    let trusted: string[] = [];
    const sources = { dataDir, trusted: () => trusted };
    const before = await findSavedCommands(workspace, sources);
    const byName = (name: string, source = 'user') => before.commands.find((c) => c.name === name && c.source === source);
    expect(byName('review')).toMatchObject({
      description: 'Review a PR',
      argumentHint: '<pr> [priority]',
      takesArguments: true,
      broken: null,
    });
    expect(byName('plain')).toMatchObject({ description: 'Tidy up', takesArguments: false, broken: null });
    expect(byName('bad')?.broken).toMatch(/^bad\.md: the front matter is not valid YAML/);
    expect(byName('not a name')?.broken).toMatch(/a command's name is letters, digits/);
    expect(byName('linked')?.broken).toMatch(/symbolic link/);
    expect(byName('fifo')?.broken).toMatch(/not a file/);
    // Untrusted: listed, not read, not usable.
    expect(byName('deploy', 'workspace')).toMatchObject({ trusted: false, description: '', body: '' });
    expect(usableCommand(before, 'deploy')).toBeNull();

    trusted = [workspace];
    const after = await findSavedCommands(workspace, sources);
    expect(usableCommand(after, 'deploy')?.body).toBe('Deploy $ARGUMENTS');
    // The person's /review stays theirs.
    expect(usableCommand(after, 'review')?.path).toBe(path.join(mine, 'review.md'));
    expect(after.commands.find((c) => c.source === 'workspace' && c.name === 'review')?.broken).toMatch(
      /another command is already called \/review/,
    );
  });
});
