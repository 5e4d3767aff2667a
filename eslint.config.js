import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The rule that shapes the tree: only the Electron shell (src-main/electron) and the preload entry
// may import electron. Everything else must run under plain Node and in a browser.
const ELECTRON_PATHS = [
  {
    name: 'electron',
    message: 'Only src-main/electron/ and src-preload/index.ts may import electron; put the logic in src-main/core behind a port.',
  },
];
const ELECTRON_PATTERNS = [{ group: ['electron/*'], message: 'Only src-main/electron/ and src-preload/index.ts may import electron.' }];
// The app starts a program of its own in one place (src-main/core/programs/app-programs.ts: by absolute
// system path, with a fixed environment), sessions in another (pty-process.ts, which the sandbox wraps).
// A bare `spawn('git')` elsewhere would look the program up on a PATH that can reach into a workspace.
const PROGRAMS_MESSAGE =
  "Start the app's own programs through src-main/core/programs/app-programs.ts (absolute system paths), sessions through exec/process/pty-process.ts.";
const PROGRAM_PATHS = ['node:child_process', 'child_process', 'node-pty'].map((name) => ({ name, message: PROGRAMS_MESSAGE }));
const DISPATCHER = 'src-main/core/bridge/dispatch.ts';
const DISPATCHER_ONLY = [
  "MemberExpression[computed=true][object.property.name='handlers']",
  "MemberExpression[computed=true][object.name='handlers']",
].map((selector) => ({ selector, message: 'call a handler through the dispatcher (core/bridge/dispatch.ts), which validates its input' }));
// A conversation's mirrored fields and items change only in agent/conversation-changes.ts, each with its
// event, so no window misses a change (conv, conversation, live.conv, this.conversation…).
const CONVERSATION_CHANGES = 'src-main/core/agent/conversation-changes.ts';
const CONVERSATION = '/^conv(ersation)?$/';
const CONVERSATION_FIELD = '/^(items|title|modelChoice|workspace|updatedAt|autoRun|planMode|tasks|computerUse)$/';
const ARRAY_CHANGE = '/^(push|pop|shift|unshift|splice|sort|reverse|fill|copyWithin)$/';
const CONVERSATION_CHANGES_ONLY = [
  `AssignmentExpression[left.property.name=${CONVERSATION_FIELD}][left.object.name=${CONVERSATION}]`,
  `AssignmentExpression[left.property.name=${CONVERSATION_FIELD}][left.object.property.name=${CONVERSATION}]`,
  `CallExpression[callee.property.name=${ARRAY_CHANGE}][callee.object.property.name='items'][callee.object.object.name=${CONVERSATION}]`,
  `CallExpression[callee.property.name=${ARRAY_CHANGE}][callee.object.property.name='items'][callee.object.object.property.name=${CONVERSATION}]`,
].map((selector) => ({
  selector,
  message: 'change a conversation through agent/conversation-changes.ts, whose functions send the event that tells the window',
}));
/** The files that may start processes directly, each for its reason (docs/security.md, "The app's own programs"). */
const PROGRAM_STARTERS = [
  'src-main/core/programs/app-programs.ts', // the one way for the app's own programs
  'src-main/core/exec/process/pty-process.ts', // sessions, wrapped by the sandbox and the limits
  'src-main/core/exec/languages/probing.ts', // the person's runtimes, asked their version (inside the sandbox when its code could have written them)
  'src-main/cli/code-editor.ts', // the person's own $EDITOR, in the CLI
  'src-main/cli/shell-line.ts', // the person's own `!command`, typed at the CLI prompt
  'src-main/launcher/**/*.ts', // `npm start`: the Electron binary and its installer
];

const noElectron = {
  'no-restricted-imports': ['error', { paths: ELECTRON_PATHS, patterns: ELECTRON_PATTERNS }],
};

const IGNORED = ['out', 'dist', 'node_modules', 'test-results', '.git'];

/** Every file and folder of the tree except `keep` (and what lies under it): the paths a zone applies to. */
function everythingBut(keep, dir = '.') {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !IGNORED.includes(entry.name))
    .flatMap((entry) => {
      const path = dir === '.' ? entry.name : join(dir, entry.name);
      if (keep.includes(path)) return [];
      if (entry.isDirectory() && keep.some((kept) => kept.startsWith(`${path}/`))) return everythingBut(keep, path);
      return [path];
    });
}

// The execution engine is a package: src-main/core/exec/index.ts is its only way in. Its own tests
// (test/unit/exec, test/integration/exec) test the parts and may reach them, and so may the attack
// suite (test/security/attacks), which builds deliberately weakened twins from the engine's parts.
const EXEC = 'src-main/core/exec';
const execEntry = {
  target: everythingBut([EXEC, 'test/unit/exec', 'test/integration/exec', 'test/security/attacks']),
  from: EXEC,
  except: ['./index.ts'],
  message: 'Import the execution engine through src-main/core/exec/index.ts (export what you need there).',
};

// Core runs under plain Node for the desktop app, the browser server and the CLI alike, so it never
// reaches into any of them; they build on core.
const coreLayer = {
  target: 'src-main/core',
  from: ['src-main/server', 'src-main/cli', 'src-main/electron', 'src-main/launcher'],
  message: 'src-main/core never imports the server, the CLI, the Electron shell or the launcher: they depend on core, not the other way.',
};

// Core's folders in the order they may depend on each other, lowest first: a folder imports only
// folders listed before it (and the files at core's root other than the composition root), so an
// import upward, and any cycle between folders, is a lint error. fs/ holds the file-system helpers
// every other folder may use. A new folder must be placed here; the list is checked against the
// folders so none is left unordered.
const CORE = 'src-main/core';
const CORE_ORDER = [
  'fs', // no-follow opens, bounded reads, atomic writes
  'programs', // the one way the app starts a program of its own
  'security', // the Content-Security-Policies
  'bridge', // the dispatcher, the handler table's types, the event bus
  'secrets',
  'providers',
  'llm', // the provider port and adapters, and every tool the model is offered
  'computer',
  'settings', // its rules check models against llm's catalogue
  'profiles', // named sets of settings (docs/agent.md#profiles)
  'workspace',
  'conversations',
  'exec',
  'hooks',
  'checkpoints',
  'mcp',
  'mcp-approval',
  'agent',
  'notebook',
  'mcp-server',
  'hosted-agents', // outside ACP agents answering a conversation, through our engine and checkpoints
  'background', // `oi … --background` runs' records
  'schedules',
  'handlers',
];
/** The composition root and the start-up: they build on every folder, and no folder builds on them. */
const CORE_ROOTS = [`${CORE}/app.ts`, `${CORE}/start-app.ts`];
/** The ordered folders that exist, checked so a new one cannot go unordered. */
function orderedFolders(root, order, list) {
  const folders = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const unplaced = folders.filter((name) => !order.includes(name));
  if (unplaced.length > 0) throw new Error(`eslint.config.js: place the folder(s) ${unplaced.join(', ')} of ${root} in ${list}`);
  return order.filter((name) => folders.includes(name));
}
const coreFolders = orderedFolders(CORE, CORE_ORDER, 'CORE_ORDER');
const coreOrder = coreFolders.map((name, index) => ({
  target: `${CORE}/${name}`,
  from: [...coreFolders.slice(index + 1).map((other) => `${CORE}/${other}`), ...CORE_ROOTS],
  message: `Core's folders import only folders placed before them in CORE_ORDER (eslint.config.js), never app.ts or start-app.ts; '${name}' comes before these. Move what both need down (file-system helpers to ${CORE}/fs/).`,
}));

// The entry points (the Electron shell, browser mode's server, the CLI, the launcher) each build on
// core and never on each other: what two of them share belongs in core.
const ENTRY_POINTS = ['src-main/electron', 'src-main/server', 'src-main/cli', 'src-main/launcher'];
const entryPoints = ENTRY_POINTS.map((entry) => ({
  target: entry,
  from: ENTRY_POINTS.filter((other) => other !== entry),
  message: 'An entry point never imports another (src-main/electron, server, cli, launcher): put what they share in src-main/core.',
}));

// The contract goes into the renderer's bundle as well as main's: it imports nothing of either side.
const contractAlone = {
  target: 'src-preload/contract',
  from: ['src-main', 'src-renderer'],
  message: "The contract (src-preload/contract) is shared by main and the renderer's bundle: it imports neither.",
};

// The renderer's layers: the bridge (window.oi or the WebSocket), then the stores (state/), then the
// feature folders, then the page's root files. State never reaches into a feature or the page.
const RENDERER = 'src-renderer';
const rendererLayers = [
  {
    target: `${RENDERER}/bridge`,
    from: [`${RENDERER}/state/**`, `${RENDERER}/features/**`, `${RENDERER}/*.{ts,tsx}`],
    message: "The renderer's bridge imports no store, feature or page file: they build on it.",
  },
  {
    target: `${RENDERER}/state`,
    from: [`${RENDERER}/features/**`, `${RENDERER}/*.{ts,tsx}`],
    message: "The renderer's stores (state/) import no feature or page file: features build on the stores.",
  },
];

// Renderer feature folders in the order they may depend on each other: a feature imports only
// features listed before it, so no two features ever import each other both ways. Something two
// features both need goes to common/ (or its own folder placed before both). A new feature folder
// must be placed here; the list is checked against the folders so none is left unordered.
const FEATURES = 'src-renderer/features';
const FEATURE_ORDER = [
  'common',
  'highlight',
  'markdown',
  'keyboard',
  'kernels',
  'layout',
  'sandbox',
  'commands',
  'mcp',
  'checkpoints',
  'instructions',
  'cells',
  'notebooks',
  'plan',
  'computer',
  'subagents',
  'preview',
  'files',
  'chat',
  'conversations',
  'keys',
  'schedules',
  'onboarding',
  'settings',
  'topbar',
];
const featureFolders = orderedFolders(FEATURES, FEATURE_ORDER, 'FEATURE_ORDER');
const featureLayers = FEATURE_ORDER.flatMap((name, index) => {
  const later = FEATURE_ORDER.slice(index + 1).filter((other) => featureFolders.includes(other));
  if (!featureFolders.includes(name) || later.length === 0) return [];
  return [
    {
      target: `${FEATURES}/${name}`,
      from: later.map((other) => `${FEATURES}/${other}`),
      message: `Feature folders import only features placed before them in FEATURE_ORDER (eslint.config.js); '${name}' comes before these. Move what both need to ${FEATURES}/common/.`,
    },
  ];
});

// Short functions in core (issue 27): a function past 80 lines of code (blank lines and comments not
// counted) is doing more than one thing. The functions not yet cut below it are listed, each file with
// its longest function's length today, so that none grows and none is added.
const CORE_FUNCTION_LINES = { max: 80, skipBlankLines: true, skipComments: true };
const LONG_CORE_FUNCTIONS = {
  'src-main/core/app.ts': 194, // createApp, the composition root
  'src-main/core/exec/auto-install/install-plans.ts': 108,
  'src-main/core/checkpoints/snapshot.ts': 102,
  'src-main/core/notebook/import-cells.ts': 102,
  'src-main/core/notebook/live-reruns.ts': 94,
  'src-main/core/llm/anthropic-provider.ts': 93,
  'src-main/core/exec/auto-install/auto-install-exec.ts': 85,
  'src-main/core/llm/computer-tool.ts': 81,
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'resources/**/*.py'] },
  js.configs.recommended,
  // The rules that need type information (recommendedTypeChecked's, no-floating-promises,
  // no-misused-promises…) run in oxlint with tsgolint (.oxlintrc.json): the same findings for a tenth of
  // the CPU, as typescript-eslint builds a TypeScript program in JavaScript. A type-aware rule added
  // here fails for want of parserOptions.project: add it to .oxlintrc.json instead.
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.base.json' })] },
    rules: {
      ...noElectron,
      'import-x/no-restricted-paths': [
        'error',
        { zones: [execEntry, coreLayer, ...coreOrder, ...entryPoints, contractAlone, ...rendererLayers, ...featureLayers] },
      ],
      // Small files: a file over 400 lines is doing more than one thing (CONTRIBUTING.md). The
      // runners' own files in other languages are held to it by test/unit/lint/file-size.test.ts.
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src-main/core/**/*.ts'], rules: { 'max-lines-per-function': ['error', CORE_FUNCTION_LINES] } },
  ...Object.entries(LONG_CORE_FUNCTIONS).map(([file, max]) => ({
    files: [file],
    rules: { 'max-lines-per-function': ['error', { ...CORE_FUNCTION_LINES, max }] },
  })),
  {
    // The runners' files not yet cut below the cap, each named so that none grows and none is added
    // (the same list is in test/unit/lint/file-size.test.ts, for the R files).
    files: ['resources/runners/node/oi-runner.mjs'],
    rules: { 'max-lines': ['error', { max: 419 }] },
  },
  { files: ['resources/runners/node/transform.mjs'], rules: { 'max-lines': ['error', { max: 548 }] } },
  {
    files: ['src-main/**/*.ts'],
    ignores: PROGRAM_STARTERS,
    rules: { 'no-restricted-imports': ['error', { paths: [...ELECTRON_PATHS, ...PROGRAM_PATHS], patterns: ELECTRON_PATTERNS }] },
  },
  {
    files: ['src-main/electron/**/*.ts', 'src-preload/index.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // One way into core: every caller goes through bridge/dispatch.ts, which validates the input with
    // the contract's schema first (the CLI through bridge/local-requests.ts). One way to change a
    // conversation: agent/conversation-changes.ts, whose functions each send the event that tells the
    // window. (One rule entry per file set: a later entry replaces no-restricted-syntax, it does not add.)
    files: ['src-main/**/*.ts'],
    ignores: [DISPATCHER, CONVERSATION_CHANGES],
    rules: { 'no-restricted-syntax': ['error', ...DISPATCHER_ONLY, ...CONVERSATION_CHANGES_ONLY] },
  },
  { files: [DISPATCHER], rules: { 'no-restricted-syntax': ['error', ...CONVERSATION_CHANGES_ONLY] } },
  { files: [CONVERSATION_CHANGES], rules: { 'no-restricted-syntax': ['error', ...DISPATCHER_ONLY] } },
  {
    // Tests may name Electron's types to shape stand-ins for ipcMain; they never load electron.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', allowTypeImports: true, message: 'Tests run without the Electron binary.' }] },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The renderer talks to main only through the bridge.' },
            {
              // Main's messages start with the request's name and may name ids (issue 25, item 3).
              name: '@contract/error-message',
              message: 'Show a failure in plain words: plainMessage or plainError from state/plain-error.ts.',
            },
          ],
          patterns: [
            { group: ['node:*'], message: 'The renderer runs in a sandboxed browser page: no Node modules.' },
            {
              group: ['**/src-main/**', '../../src-main/*'],
              message: 'The renderer may import only the contract, never main-process code.',
            },
          ],
        },
      ],
      // '@contract' builds every schema of the contract, and zod, when it loads: values come from its
      // plain modules ('@contract/error-message', '@contract/limits'…), so the page's first chunk stays
      // small (docs/ui.md#startup). A lazily loaded view may take a schema from its own module
      // ('@contract/settings'); types from '@contract' cost nothing.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@contract',
              allowTypeImports: true,
              message: "Import values from the contract module that defines them ('@contract/error-message'…), types from '@contract'.",
            },
          ],
        },
      ],
    },
  },
);
