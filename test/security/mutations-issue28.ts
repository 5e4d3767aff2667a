import type { Mutation } from './mutation';

// The mutations of issue 28 (hooks): a workspace's hooks run nothing before the person trusts its
// folder, and once trusted they run inside the sandbox when it is on. Each is caught by an assertion
// of test/security/attacks/workspace-hooks.test.ts, not by a time-out.

const TEST = 'test/security/attacks/workspace-hooks.test.ts';

export const ISSUE_28_MUTATIONS: Mutation[] = [
  {
    name: 'workspace-hooks-trust',
    protection: "a workspace's hooks (.agents/hooks.json) used only once the person trusts its folder",
    file: 'src-main/core/hooks/hook-config.ts',
    find: 'if (!isInsideTrusted(folder, sources.trustedFolders)) {',
    replace: 'if (false) {',
    tests: [TEST],
  },
  {
    name: 'workspace-hooks-sandbox',
    protection: "a trusted workspace's hooks run inside the sandbox when the sandbox is on",
    file: 'src-main/core/hooks/hook-runner.ts',
    find: "if (hook.source !== 'workspace') return",
    replace: 'if (hook.source) return',
    tests: [TEST],
  },
];
