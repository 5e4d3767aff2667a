import type { Mutation } from './mutation';

// The mutations of issue 28: a workspace's hooks run nothing before the person trusts its folder, and
// once trusted they run inside the sandbox when it is on (workspace-hooks.test.ts); a skill's .zip
// cannot write outside, carry a link or unpack past its size (skill-zip.test.ts); a workspace's saved
// command is not used before that trust (untrusted-command.test.ts). Each is caught by
// an assertion, not by a time-out.

const TEST = 'test/security/attacks/workspace-hooks.test.ts';
const ZIP_TEST = 'test/security/attacks/skill-zip.test.ts';
const COMMAND_TEST = 'test/security/attacks/untrusted-command.test.ts';

export const ISSUE_28_MUTATIONS: Mutation[] = [
  {
    name: 'workspace-hooks-trust',
    protection: "a workspace's hooks (.agents/hooks.json) used only once the person trusts its folder",
    file: 'src-main/core/hooks/hook-config.ts',
    find: 'if (!isInsideTrusted(folder, trustedFolders)) {',
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
  {
    name: 'skill-zip-slip',
    protection: "a skill zip's entry that climbs out with .. is refused before anything is written",
    file: 'src-main/core/agent/skills/skill-zip.ts',
    find: "if (segment === '..') throw",
    replace: "if (segment === '..!') throw",
    tests: [ZIP_TEST],
  },
  {
    name: 'skill-zip-link',
    protection: "a skill zip's link entry refuses the zip",
    file: 'src-main/core/agent/skills/skill-zip.ts',
    find: 'if (type === S_IFLNK) throw',
    replace: 'if (type === -1) throw',
    tests: [ZIP_TEST],
  },
  {
    name: 'skill-zip-bomb',
    protection: "a skill zip's entry is inflated no further than its declared size",
    file: 'src-main/core/agent/skills/skill-zip.ts',
    find: '{ maxOutputLength: entry.size }',
    replace: '{}',
    tests: [ZIP_TEST],
  },
  {
    name: 'workspace-commands-trust',
    protection: "a workspace's saved commands are expanded only once the person trusts its folder",
    file: 'src-main/core/agent/saved-commands.ts',
    find: 'c.name === name && c.trusted && !c.broken',
    replace: 'c.name === name && !c.broken',
    tests: [COMMAND_TEST],
  },
];
