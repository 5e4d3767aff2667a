import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@contract';
import { previewFile } from '../../../src-main/core/workspace/file-preview';
import { SANDBOX, startSandboxTarget, type SandboxTarget } from './support/sandbox-target';

// Issue 12 #8: a run past the cap links to its whole output, `.oi/outputs/<run>.log` in the
// workspace, and the link opens it in the preview. The workspace is the sandboxed code's to write:
// after the run it swaps the log (or its folder) for a link to a secret in the home the sandbox
// hides, and waits for the person to click "full output". The preview (the same function the
// 'workspace.preview' request calls) never follows a link out of the workspace, so it refuses, and
// the secret reaches neither the UI nor anything else. Twin: the same path read the plain way
// follows the link and gives the secret away.

const SECRET = 'SECRET-KEY-MATERIAL-oi-attack\n';

describe('the full output link is never followed out of the workspace', () => {
  let t: SandboxTarget;
  beforeAll(async () => {
    t = await startSandboxTarget();
  });
  afterAll(async () => t?.close());

  it.each([
    ['the log itself', (secret: string) => [`os.remove(LOG)`, `os.symlink(${JSON.stringify(secret)}, LOG)`]],
    [
      'its folder .oi/outputs',
      (secret: string) => [
        'import shutil',
        'shutil.rmtree(".oi/outputs")',
        `os.symlink(${JSON.stringify(join(secret, '..'))}, ".oi/outputs")`,
      ],
    ],
  ])('a link planted at %s after the run', async (_where, plant) => {
    const workspace = await t.freshWorkspace();
    const conversation = `full-${basename(workspace)}`;
    const runId = 'big-run';
    // The victim, in the hidden home, named as the log is so a swapped folder would lead to it.
    const secret = join(t.home, 'victims', basename(workspace), `${runId}.log`);
    mkdirSync(join(secret, '..'), { recursive: true });
    writeFileSync(secret, SECRET);

    const flood = await t.service.run({
      conversationId: conversation,
      workspace,
      runId,
      language: 'python',
      code: 'for i in range(5000):\n    print("row", i)',
      sandbox: SANDBOX,
      settings: { ...defaultSettings.exec, outputCapBytes: 10_000, env: { HOME: t.home } },
    });
    expect(flood.status).toBe('done');
    expect(flood.fullOutput?.path).toBe(`.oi/outputs/${runId}.log`);
    const path = flood.fullOutput?.path ?? '';
    // Before the swap the link opens the log.
    const honest = await previewFile(workspace, path);
    expect(honest.kind === 'text' && honest.text.startsWith('row 0\nrow 1\n')).toBe(true);

    // The sandboxed code cannot read the secret itself…
    const peek = await t.run(conversation, 'python', `print(open(${JSON.stringify(secret)}).read())`, { workspace, sandbox: SANDBOX });
    expect(peek.status).toBe('failed');
    expect(peek.forModel).not.toContain('SECRET-KEY');
    // …so it plants a link where the app will read for it.
    const planted = await t.run(conversation, 'python', ['import os', `LOG = ".oi/outputs/${runId}.log"`, ...plant(secret)].join('\n'), {
      workspace,
      sandbox: SANDBOX,
    });
    expect(planted.status).toBe('done');

    // Attack: the person clicks "full output (…)".
    const opened = await previewFile(workspace, path).then(
      (preview) => JSON.stringify(preview),
      (err: Error) => `refused: ${err.message}`,
    );
    expect(opened).toMatch(/^refused: .*(outside|link)/i);
    expect(opened).not.toContain('SECRET-KEY');

    // Twin: the same path read the plain way follows the planted link to the secret.
    expect(await readFile(join(workspace, path), 'utf8')).toBe(SECRET);
  });
});
