import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runOi, tempDir } from '../../support/cli-process';

// `oi --workspace` holds the folder to the app's own checks (after making it when it is missing).

let data: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  data?.remove();
  data = null;
});

// Never contacted: the run stops at the folder check, before any conversation or model call.
const MODEL_FLAGS = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', 'http://127.0.0.1:9/v1'];

describe('oi --workspace', () => {
  it('refuses a file, or a path through a file, with the same words as the app, and starts nothing', { timeout: 180_000 }, async () => {
    data = tempDir('oi-cli-ws-');
    const file = path.join(data.dir, 'notes.txt');
    writeFileSync(file, 'x');
    const onFile = await runOi([...MODEL_FLAGS, '--workspace', file, '-m', 'hello'], cliEnv(data.dir));
    expect(onFile.code).not.toBe(0);
    expect(onFile.stderr).toContain(`oi: ${file} is a file, not a folder`);

    const through = await runOi([...MODEL_FLAGS, '--workspace', path.join(file, 'inside'), '-m', 'hello'], cliEnv(data.dir));
    expect(through.code).not.toBe(0);
    expect(through.stderr).toMatch(/inside is not a folder: a part of the path is a file/);

    const inData = await runOi([...MODEL_FLAGS, '--workspace', data.dir, '-m', 'hello'], cliEnv(data.dir));
    expect(inData.code).not.toBe(0);
    expect(inData.stderr).toMatch(/is the app's own data/);

    const saved = path.join(data.dir, 'conversations');
    expect(existsSync(saved) ? readdirSync(saved) : []).toEqual([]);
  });
});
