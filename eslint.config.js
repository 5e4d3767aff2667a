import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The rule that shapes the tree: only the Electron shell (src-main/electron) and the preload entry
// may import electron. Everything else must run under plain Node and in a browser.
const noElectron = {
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'electron', message: 'Only src-main/electron/ and src-preload/index.ts may import electron; put the logic in src-main/core behind a port.' }],
      patterns: [{ group: ['electron/*'], message: 'Only src-main/electron/ and src-preload/index.ts may import electron.' }],
    },
  ],
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'resources/**/*.py'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      ...noElectron,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src-main/electron/**/*.ts', 'src-preload/index.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Tests may name Electron's types to shape stand-ins for ipcMain; they never load electron.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ name: 'electron', allowTypeImports: true, message: 'Tests run without the Electron binary.' }] }],
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
          paths: [{ name: 'electron', message: 'The renderer talks to main only through the bridge.' }],
          patterns: [
            { group: ['node:*'], message: 'The renderer runs in a sandboxed browser page: no Node modules.' },
            { group: ['**/src-main/**', '../../src-main/*'], message: 'The renderer may import only the contract, never main-process code.' },
          ],
        },
      ],
    },
  },
);
