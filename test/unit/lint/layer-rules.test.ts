import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eslintRefusals, ROOT } from './support/eslint-refusals';

// The layer rules of eslint.config.js, run by ESLint itself on imports written into real files of
// the tree: each rule must refuse the import that breaks its layer and let the allowed direction through.

const FEATURES = 'src-renderer/features';
const LAYER_RULES = new Set(['import-x/no-restricted-paths', 'no-restricted-imports', '@typescript-eslint/no-restricted-imports']);

const refusals = eslintRefusals((ruleId) => LAYER_RULES.has(ruleId));

describe('core never reaches into the server, the CLI, the launcher or Electron', () => {
  it.each([
    ['the server', "import { startBrowserServer } from '../server/browser-server';\nvoid startBrowserServer;\n"],
    ['the CLI', "import { parseCliArgs } from '../cli/cli-args';\nvoid parseCliArgs;\n"],
    ['the launcher', "import '../launcher/electron-binary';\n"],
    ['the Electron shell', "import '../electron/window';\n"],
  ])('refuses an import of %s', async (_what, code) => {
    expect(await refusals('src-main/core/app.ts', code)).toContain('import-x/no-restricted-paths');
  });

  it('refuses electron itself outside the shell and the preload', async () => {
    expect(await refusals('src-main/core/app.ts', "import { app } from 'electron';\nvoid app;\n")).toContain('no-restricted-imports');
    expect(await refusals('src-main/server/main.ts', "import { app } from 'electron';\nvoid app;\n")).toContain('no-restricted-imports');
    expect(await refusals('src-main/electron/window.ts', "import { app } from 'electron';\nvoid app;\n")).toEqual([]);
  });

  it('lets the server and the CLI build on core', async () => {
    expect(await refusals('src-main/server/main.ts', "import { createApp } from '../core/app';\nvoid createApp;\n")).toEqual([]);
    expect(await refusals('src-main/cli/cli-run.ts', "import { createApp } from '../core/app';\nvoid createApp;\n")).toEqual([]);
  });
});

describe("the app's own programs start in one place", () => {
  it('refuses child_process and node-pty outside the files that start processes', async () => {
    const cases: Array<[string, string]> = [
      ['src-main/core/checkpoints/git-objects.ts', "import { spawn } from 'node:child_process';\nvoid spawn;\n"],
      ['src-main/core/exec/input/forget-sudo.ts', "import { execFile } from 'child_process';\nvoid execFile;\n"],
      ['src-main/server/main.ts', "import * as pty from 'node-pty';\nvoid pty;\n"],
    ];
    for (const [file, code] of cases) expect(await refusals(file, code), file).toContain('no-restricted-imports');
  });

  it('lets app-programs.ts and the session spawn use them', async () => {
    const code = "import { spawn } from 'node:child_process';\nvoid spawn;\n";
    expect(await refusals('src-main/core/programs/app-programs.ts', code)).toEqual([]);
    expect(await refusals('src-main/core/exec/process/pty-process.ts', code)).toEqual([]);
  });
});

describe('the execution engine has one way in', () => {
  it('refuses a part of the engine from outside it, and takes its index', async () => {
    expect(
      await refusals('src-main/core/app.ts', "import { createExecService } from './exec/engine/exec-service';\nvoid createExecService;\n"),
    ).toContain('import-x/no-restricted-paths');
    expect(await refusals('src-main/core/app.ts', "import { createExecService } from './exec';\nvoid createExecService;\n")).toEqual([]);
  });
});

/** The first source file (sorted) directly in `folder`, to write imports into and to import. */
function fileIn(folder: string): string {
  const name = readdirSync(path.join(ROOT, folder))
    .sort()
    .find((f) => /\.tsx?$/.test(f));
  if (!name) throw new Error(`${folder} has no source file`);
  return `${folder}/${name}`;
}
/** `import` of `to` (a file of the repository) as written in `from`. */
function importLine(from: string, to: string): string {
  const relative = path.relative(path.dirname(from), to).replace(/\.tsx?$/, '');
  return `import '${relative.startsWith('.') ? relative : `./${relative}`}';\n`;
}
const NO_PATH = 'import-x/no-restricted-paths';

describe("core's folders in one order", () => {
  const CORE = 'src-main/core';
  const folders = readdirSync(path.join(ROOT, CORE), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && readdirSync(path.join(ROOT, CORE, entry.name)).some((f) => f.endsWith('.ts')))
    .map((entry) => `${CORE}/${entry.name}`);

  it.each([
    ['exec → agent', 'src-main/core/exec/engine/exec-service.ts', 'src-main/core/agent/agent-service.ts'],
    ['exec → handlers', 'src-main/core/exec/index.ts', 'src-main/core/handlers/app-context.ts'],
    ['exec → checkpoints', 'src-main/core/exec/output/output-cap.ts', 'src-main/core/checkpoints/restore.ts'],
    ['llm → agent', 'src-main/core/llm/execute-tool.ts', 'src-main/core/agent/turn.ts'],
    ['llm → mcp', 'src-main/core/llm/execute-tool.ts', 'src-main/core/mcp/mcp-manager.ts'],
    ['fs → conversations', 'src-main/core/fs/atomic-write.ts', 'src-main/core/conversations/conversation-store.ts'],
    ['workspace → agent', 'src-main/core/workspace/file-ops.ts', 'src-main/core/agent/agent-service.ts'],
    ['hooks → agent', 'src-main/core/hooks/hook-config.ts', 'src-main/core/agent/project-instructions.ts'],
    ['a folder → the composition root', 'src-main/core/handlers/app-context.ts', 'src-main/core/app.ts'],
    ['a folder → the start-up', 'src-main/core/agent/turn.ts', 'src-main/core/start-app.ts'],
  ])('refuses an upward import: %s', async (_what, from, to) => {
    expect(await refusals(from, importLine(from, to))).toContain(NO_PATH);
  });

  it('(twin) lets each direction the order allows through', async () => {
    const allowed: Array<[string, string]> = [
      ['src-main/core/agent/turn.ts', 'src-main/core/exec/index.ts'],
      ['src-main/core/exec/output/output-cap.ts', 'src-main/core/fs/no-follow-open.ts'],
      ['src-main/core/settings/settings-rules.ts', 'src-main/core/llm/model-catalog.ts'],
      ['src-main/core/app.ts', 'src-main/core/handlers/app-context.ts'],
      ['src-main/core/schedules/oi-command.ts', 'src-main/core/app-version.ts'],
    ];
    for (const [from, to] of allowed) expect(await refusals(from, importLine(from, to)), `${from} → ${to}`).toEqual([]);
  });

  it('never import each other both ways: of every two folders, lint refuses at least one direction', async () => {
    const bothWays: string[] = [];
    for (const [i, a] of folders.entries()) {
      for (const b of folders.slice(i + 1)) {
        const [fileA, fileB] = [fileIn(a), fileIn(b)];
        const aToB = await refusals(fileA, importLine(fileA, fileB));
        const bToA = await refusals(fileB, importLine(fileB, fileA));
        if (!aToB.includes(NO_PATH) && !bToA.includes(NO_PATH)) bothWays.push(`${a} <-> ${b}`);
      }
    }
    expect(folders.length).toBeGreaterThan(15);
    expect(bothWays).toEqual([]);
  });

  it('all may use fs/, which uses none of them', async () => {
    const fs = fileIn(`${CORE}/fs`);
    for (const folder of folders.filter((f) => f !== `${CORE}/fs`)) {
      const file = fileIn(folder);
      expect(await refusals(file, importLine(file, fs)), folder).toEqual([]);
      expect(await refusals(fs, importLine(fs, file)), folder).toContain(NO_PATH);
    }
  });
});

describe('the entry points never import each other', () => {
  const ENTRIES = ['src-main/electron', 'src-main/server', 'src-main/cli', 'src-main/launcher'];
  it('refuses each entry point importing any other', async () => {
    for (const from of ENTRIES) {
      for (const to of ENTRIES.filter((other) => other !== from)) {
        const [fromFile, toFile] = [fileIn(from), fileIn(to)];
        expect(await refusals(fromFile, importLine(fromFile, toFile)), `${from} → ${to}`).toContain(NO_PATH);
      }
    }
  });
});

describe('the contract stands alone', () => {
  it("refuses an import of main's code or the renderer's in src-preload/contract, and takes its own modules", async () => {
    const file = 'src-preload/contract/model.ts';
    expect(await refusals(file, importLine(file, 'src-main/core/app.ts'))).toContain(NO_PATH);
    expect(await refusals(file, importLine(file, 'src-main/core/llm/model-catalog.ts'))).toContain(NO_PATH);
    expect(await refusals(file, importLine(file, 'src-renderer/state/app-store.ts'))).toContain(NO_PATH);
    expect(await refusals(file, importLine(file, 'src-preload/contract/limits.ts'))).toEqual([]);
  });
});

describe("the renderer's stores and bridge", () => {
  it('refuses a store importing a feature or a page file, and the bridge importing a store', async () => {
    const store = 'src-renderer/state/app-store.ts';
    expect(await refusals(store, importLine(store, 'src-renderer/features/chat/ChatScreen.tsx'))).toContain(NO_PATH);
    expect(await refusals(store, importLine(store, 'src-renderer/App.tsx'))).toContain(NO_PATH);
    const bridgeFile = 'src-renderer/bridge/bridge.ts';
    expect(await refusals(bridgeFile, importLine(bridgeFile, store))).toContain(NO_PATH);
  });

  it('(twin) lets a feature use a store and a store use the bridge', async () => {
    const feature = 'src-renderer/features/chat/ChatScreen.tsx';
    expect(await refusals(feature, importLine(feature, 'src-renderer/state/app-store.ts'))).toEqual([]);
    expect(
      await refusals('src-renderer/state/app-store.ts', importLine('src-renderer/state/app-store.ts', 'src-renderer/bridge/bridge.ts')),
    ).toEqual([]);
  });
});

describe('renderer feature folders', () => {
  const folders = readdirSync(path.join(ROOT, FEATURES), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  /** A real source file of the folder, to write imports into and to import. */
  const fileOf = (folder: string): string => {
    const name = readdirSync(path.join(ROOT, FEATURES, folder)).find((f) => /\.tsx?$/.test(f));
    if (!name) throw new Error(`${FEATURES}/${folder} has no source file`);
    return `${FEATURES}/${folder}/${name}`;
  };
  const importOf = (to: string): string => `import '../${to}/${path.basename(fileOf(to)).replace(/\.tsx?$/, '')}';\n`;

  it('never import each other both ways: of every two, lint refuses at least one direction', async () => {
    const bothWays: string[] = [];
    for (const [i, a] of folders.entries()) {
      for (const b of folders.slice(i + 1)) {
        const aToB = await refusals(fileOf(a), importOf(b));
        const bToA = await refusals(fileOf(b), importOf(a));
        if (!aToB.includes('import-x/no-restricted-paths') && !bToA.includes('import-x/no-restricted-paths'))
          bothWays.push(`${a} <-> ${b}`);
      }
    }
    expect(folders.length).toBeGreaterThan(10);
    expect(bothWays).toEqual([]);
  });

  it('all may use common/, which uses none of them', async () => {
    for (const folder of folders.filter((f) => f !== 'common')) {
      expect(await refusals(fileOf(folder), importOf('common'))).toEqual([]);
      expect(await refusals(fileOf('common'), importOf(folder))).toContain('import-x/no-restricted-paths');
    }
  });

  it('take values from the contract only through its plain modules', async () => {
    const file = fileOf('chat');
    expect(await refusals(file, "import { requests } from '@contract';\nvoid requests;\n")).toContain(
      '@typescript-eslint/no-restricted-imports',
    );
    expect(await refusals(file, "import type { Settings } from '@contract';\nexport type S = Settings;\n")).toEqual([]);
    expect(await refusals(file, "import { MAX_ATTACHMENT_BYTES } from '@contract/limits';\nvoid MAX_ATTACHMENT_BYTES;\n")).toEqual([]);
  });

  it('show a failure only in plain words, never main’s raw message with its request name (issue 25, item 3)', async () => {
    const raw = "import { errorMessage } from '@contract/error-message';\nvoid errorMessage;\n";
    expect(await refusals(fileOf('chat'), raw)).toContain('no-restricted-imports');
    expect(await refusals(fileOf('chat'), "import { plainMessage } from '../../state/plain-error';\nvoid plainMessage;\n")).toEqual([]);
  });
});
