import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type ExecSettings, type SandboxSettings } from '@contract';
import { envReadingUserRc } from '../../support/user-rc';
import { createExecService, type ExecService, type RunResult } from '../../../src-main/core/exec';
import { RESOURCES_DIR, SANDBOX } from './support/sandbox-target';

// Issue 17, finding 7: the keys the app holds never reach the code's environment — not under the
// names the app reads keys from (every one `oi --help` lists), not under any other name, not with a
// trailing newline — and a key the code prints anyway (read from a file) is redacted before it is
// shown, saved or sent to the model. The code itself reports what it sees, so redaction cannot hide a
// leak from this test. Twins: the key opted in through Settings → Environment is seen (the check can
// fail), and an engine told no keys passes printed keys through (the redaction is what removes them).

const KEY = `gsk_canary_${randomUUID().replace(/-/g, '')}`;
const MARK = '[redacted: groq key]';

/** Code per language that prints which variables hold the key, and whether GROQ_API_KEY exists. */
const REPORT: Record<string, string> = {
  python: `import os\nprint("holders", sorted(k for k, v in os.environ.items() if ${JSON.stringify(KEY)} in v), "GROQ_API_KEY" in os.environ)`,
  shell: `echo "holders [$(env | grep -c ${KEY})] $( [ -n "\${GROQ_API_KEY+x}" ] && echo True || echo False)"`,
  javascript: `console.log('holders', JSON.stringify(Object.keys(process.env).filter((k) => process.env[k].includes(${JSON.stringify(KEY)}))), 'GROQ_API_KEY' in process.env ? 'True' : 'False')`,
};

function text(result: RunResult): string {
  return result.outputs.map((o) => JSON.stringify(o)).join('\n');
}

function printed(result: RunResult): string {
  return result.outputs.map((o) => (o.output_type === 'stream' ? o.text : '')).join('');
}

describe('keys never reach the code, and never come back out of it (issue 17 #7)', () => {
  let home: string;
  let workspace: string;
  let tmpRoot: string;
  let service: ExecService;
  let blind: ExecService;

  beforeAll(async () => {
    tmpRoot = await mkdtemp(join(tmpdir(), 'oi-keys-'));
    home = join(tmpRoot, 'home');
    workspace = join(home, 'ws');
    await mkdir(workspace, { recursive: true });
    // A user's shell start-up exporting the key again, as people do (and a mark that it was read).
    await writeFile(join(home, '.bashrc'), `export GROQ_API_KEY=${KEY}\nexport RC_WAS_READ=yes\n`);
    // The suite skips rc files (OI_NO_USER_RC, vitest.config.ts); this attack needs the .bashrc read.
    const baseEnv = {
      ...envReadingUserRc(),
      HOME: home,
      // A shell capture such as $(cat groq.txt) keeps the newline.
      GROQ_API_KEY: `${KEY}\n`,
      MY_TOKEN: `  ${KEY}\n`,
      AUTH_HEADER: `Bearer ${KEY}`,
    };
    service = createExecService({
      resourcesDir: RESOURCES_DIR,
      tmpRoot,
      graceMs: 1000,
      baseEnv,
      secrets: () => [{ value: KEY, label: 'groq key' }],
    });
    blind = createExecService({ resourcesDir: RESOURCES_DIR, tmpRoot, graceMs: 1000, baseEnv: { ...envReadingUserRc(), HOME: home } });
  });
  afterAll(async () => {
    await service?.dispose();
    await blind?.dispose();
    await rm(tmpRoot, { recursive: true, force: true });
  });

  const run = (
    engine: ExecService,
    id: string,
    language: string,
    code: string,
    extra: { sandbox?: SandboxSettings; settings?: Partial<ExecSettings>; terminal?: string[] } = {},
  ) =>
    engine.run({
      conversationId: id,
      workspace,
      language,
      code,
      ...(extra.sandbox ? { sandbox: extra.sandbox } : {}),
      settings: { ...defaultSettings.exec, timeoutMs: 30_000, ...extra.settings },
      onTerminal: (t) => extra.terminal?.push(t),
    });

  it.each([
    ['python', undefined],
    ['shell', undefined],
    ['javascript', undefined],
    ['python', SANDBOX],
    ['shell', SANDBOX],
  ] as const)('%s code (sandbox: %s) finds the key under no variable', async (language, sandbox) => {
    const result = await run(service, `env-${language}-${sandbox ? 'sb' : 'plain'}`, language, REPORT[language] as string, {
      ...(sandbox ? { sandbox } : {}),
    });
    expect(result.status).toBe('done');
    expect(printed(result)).toMatch(/holders (\[\]|\[0\]) False/);
    // Outside the sandbox the shell read the home's .bashrc that exports the key again, so the check
    // above covered it (a sandboxed shell does not see that home).
    if (language === 'shell' && !sandbox) {
      const rc = await run(service, `env-${language}-plain`, 'shell', 'echo "rc ${RC_WAS_READ-unread}"');
      expect(printed(rc)).toBe('rc yes\n');
    }

    // Twin: opted in on purpose through Settings → Environment, the same check sees it.
    const optedIn = await run(service, `env-${language}-${sandbox ? 'sb' : 'plain'}-in`, language, REPORT[language] as string, {
      ...(sandbox ? { sandbox } : {}),
      settings: { env: { GROQ_API_KEY: `${KEY}\n` } },
    });
    expect(printed(optedIn)).toMatch(/holders (\["GROQ_API_KEY"\]|\[ *'?GROQ_API_KEY'? *\]|\[1\]) True/);
  });

  it('a key the code prints is redacted in the live terminal, the saved outputs, the model text and the spill file', async () => {
    await writeFile(join(workspace, '.env'), `GROQ=${KEY}\n`);
    const code = [
      'import sys, time',
      'key = open(".env").read().split("=", 1)[1].strip()',
      'print("whole:", key)',
      // Split over two writes with a pause, so the key crosses terminal chunks.
      'sys.stdout.write("split:" + key[:9]); sys.stdout.flush(); time.sleep(0.3); print(key[9:])',
      'display({"text/html": "<b>" + key + "</b>", "text/plain": key}, raw=True)',
      'print("x" * 3000)',
      'raise ValueError("bad key " + key)',
    ].join('\n');
    const terminal: string[] = [];
    const result = await run(service, 'redact', 'python', code, { terminal, settings: { outputCapBytes: 1000 } });
    const spill = (result.forModel.match(/saved to (\S+\.log)/) ?? [])[1];
    expect(spill).toBeDefined();
    const seen = { live: terminal.join(''), saved: text(result), model: result.forModel, spill: await readFile(spill as string, 'utf8') };
    for (const [where, value] of Object.entries(seen)) {
      expect(value, where).not.toContain(KEY);
      expect(value, where).not.toContain(KEY.slice(0, 20));
    }
    expect(seen.spill).toContain(`whole: ${MARK}`);
    expect(seen.spill).toContain(`split:${MARK}`);
    expect(seen.saved).toContain(`<b>${MARK}</b>`);
    expect(seen.model).toContain(`bad key ${MARK}`);

    // Twin: an engine that is told no keys passes the same output through as printed.
    const plain = await run(blind, 'redact-twin', 'python', code, { settings: { outputCapBytes: 1000 } });
    expect(text(plain)).toContain(KEY);
    expect(plain.forModel).toContain(`bad key ${KEY}`);
  });
});
