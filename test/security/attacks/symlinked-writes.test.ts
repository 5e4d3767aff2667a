import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@contract';
import { saveAttachmentBytes } from '../../../src-main/core/workspace/attachments';
import { SANDBOX, startSandboxTarget, stdoutOf, type SandboxTarget } from './support/sandbox-target';

// Issue 17, finding 2: every file the app writes where the code can write — the workspace, a
// sandboxed session's private folder — is created without following a link at any component. Each
// attack plants the link from inside the sandbox (or races a swap), then makes the app write; the
// victim is a file in the home the sandbox hides, i.e. one the code could never write itself. Each
// twin writes through the same path the plain way, showing the link does lead to the victim.

describe('the app never writes through a link the code planted (issue 17 #2)', () => {
  let t: SandboxTarget;
  beforeAll(async () => {
    t = await startSandboxTarget();
  });
  afterAll(async () => t?.close());

  function victim(name: string): string {
    const path = join(t.home, 'victims', name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, 'export SAFE=1\n');
    return path;
  }

  // A link as the file's own name is replaced by the new file; a link on the way refuses the spill.
  it.each([
    [
      'the spill file itself',
      /more, saved to .*attack-run\.log/,
      (v: string) => ['os.makedirs(".oi/outputs", exist_ok=True)', `os.symlink(${JSON.stringify(v)}, ".oi/outputs/attack-run.log")`],
    ],
    [
      '.oi/outputs',
      /more, not saved \(.*symbolic link/,
      (v: string) => [
        'os.makedirs(".oi", exist_ok=True)',
        `os.symlink(${JSON.stringify(join(v, '..', 'outputs-elsewhere'))}, ".oi/outputs")`,
      ],
    ],
    ['.oi', /more, not saved \(.*symbolic link/, (v: string) => [`os.symlink(${JSON.stringify(join(v, '..', 'oi-elsewhere'))}, ".oi")`]],
  ])('output past the cap is not written through a link at %s', async (_where, note, plant) => {
    const workspace = await t.freshWorkspace();
    // Each case's victims in a folder of their own in the hidden home.
    const bashrc = victim(join(basename(workspace), 'bashrc'));
    mkdirSync(join(bashrc, '..', 'outputs-elsewhere'), { recursive: true });
    mkdirSync(join(bashrc, '..', 'oi-elsewhere', 'outputs'), { recursive: true });
    const conversation = `spill-${basename(workspace)}`;
    const plantCode = ['import os', ...plant(bashrc)].join('\n');
    const planted = await t.run(conversation, 'python', plantCode, { workspace, sandbox: SANDBOX });
    expect(planted.status).toBe('done');
    const flood = await t.service.run({
      conversationId: conversation,
      workspace,
      runId: 'attack-run',
      language: 'python',
      code: 'print("x" * 200_000)',
      sandbox: SANDBOX,
      settings: { ...defaultSettings.exec, outputCapBytes: 10_000, env: { HOME: t.home } },
    });
    expect(flood.status).toBe('done');
    expect(flood.forModel).toMatch(note);
    expect(readFileSync(bashrc, 'utf8')).toBe('export SAFE=1\n');
    expect(readdirSync(join(bashrc, '..', 'outputs-elsewhere'))).toEqual([]);
    expect(readdirSync(join(bashrc, '..', 'oi-elsewhere', 'outputs'))).toEqual([]);

    // Twin: with the link planted again, the same path written the plain way (as the spill was) lands outside.
    await rm(join(workspace, '.oi'), { recursive: true, force: true });
    expect((await t.run(conversation, 'python', plantCode, { workspace, sandbox: SANDBOX })).status).toBe('done');
    await writeFile(join(workspace, '.oi', 'outputs', 'attack-run.log'), 'attacker text\n');
    const landed = [
      readFileSync(bashrc, 'utf8'),
      ...readdirSync(join(bashrc, '..', 'outputs-elsewhere')),
      ...readdirSync(join(bashrc, '..', 'oi-elsewhere', 'outputs')),
    ];
    expect(landed.join()).toMatch(/attacker text|attack-run\.log/);
  });

  it("the spill folder's .gitignore is never written through a link planted at it", async () => {
    const workspace = await t.freshWorkspace();
    const bashrc = victim(join(basename(workspace), 'bashrc'));
    const conversation = `gitignore-${basename(workspace)}`;
    const plantCode = ['import os', 'os.makedirs(".oi", exist_ok=True)', `os.symlink(${JSON.stringify(bashrc)}, ".oi/.gitignore")`].join(
      '\n',
    );
    expect((await t.run(conversation, 'python', plantCode, { workspace, sandbox: SANDBOX })).status).toBe('done');
    const flood = await t.service.run({
      conversationId: conversation,
      workspace,
      runId: 'gitignore-run',
      language: 'python',
      code: 'print("x" * 200_000)',
      sandbox: SANDBOX,
      settings: { ...defaultSettings.exec, outputCapBytes: 10_000, env: { HOME: t.home } },
    });
    // The spill itself is saved; the planted name is left as it was, and what it leads to untouched.
    expect(flood.forModel).toMatch(/more, saved to .*gitignore-run\.log/);
    expect(readFileSync(bashrc, 'utf8')).toBe('export SAFE=1\n');

    // Twin: the same path written the plain way lands in the victim.
    await writeFile(join(workspace, '.oi', '.gitignore'), '*\n');
    expect(readFileSync(bashrc, 'utf8')).toBe('*\n');
  });

  it("a shell session's cell file swapped for a link is replaced, never written through", async () => {
    const workspace = await t.freshWorkspace();
    const bashrc = victim('bashrc-cell');
    // The shell keeps the cell file's path in a variable of its own, which the cell can read.
    const plant = await t.run('cell', 'shell', `ln -sf ${JSON.stringify(bashrc)} "$__oi_cell" && echo planted`, {
      workspace,
      sandbox: SANDBOX,
    });
    expect(stdoutOf(plant)).toContain('planted');
    const next = await t.run('cell', 'shell', 'echo "next cell $((6 * 7))"', { workspace, sandbox: SANDBOX });
    expect(stdoutOf(next)).toContain('next cell 42');
    expect(readFileSync(bashrc, 'utf8')).toBe('export SAFE=1\n');

    // Twin: the cell file's path does lead to the victim while the link is there.
    const leak = await t.run('cell-twin', 'shell', `ln -sf ${JSON.stringify(bashrc)} "$__oi_cell"; echo "$__oi_cell"`, {
      workspace,
      sandbox: SANDBOX,
    });
    const cellFile = stdoutOf(leak).trim().split('\n').at(-1) ?? '';
    await writeFile(cellFile, 'echo pwned\n');
    expect(readFileSync(bashrc, 'utf8')).toBe('echo pwned\n');
  });

  it('attachments are never written outside while the code races to swap attachments/ for a link', async () => {
    const workspace = await t.freshWorkspace();
    const outside = join(t.home, 'attach-victim');
    mkdirSync(outside);
    mkdirSync(join(workspace, 'attachments'));
    // The code swaps the folder for a link to outside and back, as fast as it can.
    const swapper = spawn(
      '/usr/bin/python3',
      [
        '-c',
        [
          'import os, sys',
          'os.chdir(sys.argv[1])',
          'while True:',
          '    try:',
          '        os.rename("attachments", "real"); os.symlink(sys.argv[2], "attachments")',
          '        os.unlink("attachments"); os.rename("real", "attachments")',
          '    except OSError: pass',
        ].join('\n'),
        workspace,
        outside,
      ],
      { stdio: 'ignore' },
    );
    try {
      // Saves that meet the link are refused; none goes through it.
      for (let i = 0; i < 400; i++)
        await saveAttachmentBytes(workspace, `note-${i}.txt`, 'text/plain', Buffer.from('x')).catch(() => undefined);
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      swapper.kill('SIGKILL');
    }

    // Twin: with the link in place, a plain write to attachments/ lands outside.
    symlinkSync(outside, join(workspace, 'attachments-link'));
    writeFileSync(join(workspace, 'attachments-link', 'note.txt'), 'x');
    expect(readdirSync(outside)).toEqual(['note.txt']);
  });
});
