import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Mutation } from './mutation';
import { ISSUE_24_MUTATIONS } from './mutations-issue24';
import { ISSUE_28_MUTATIONS } from './mutations-issue28';

// The mutation check of issue 17, finding 11: every protection of the sandbox has a test that fails
// when the protection is removed. Each mutation below takes one protection out of the source (one
// exact text replaced), runs the tests that should notice, expects them to FAIL, and puts the source
// back. A mutation the tests survive is a protection no test holds.
//
//   npx tsx test/security/mutation-check.ts            each mutation against the tests named for it
//   npx tsx test/security/mutation-check.ts --full     each against all of test/security/attacks and
//                                                      test/integration/sandbox (slow: ~2 min each)
//   npx tsx test/security/mutation-check.ts --only dev,proc
//
// Run on demand, not in `npm test`: it edits files of the working tree while it runs (restored on
// exit, Ctrl-C included), so run it in a checkout nothing else is building or testing, after
// `npm run build` (the full-turn tests serve the built renderer). It first runs the tests unmutated
// (skip with --no-baseline): they must pass, or a "caught" would mean nothing. A mutation counts as
// caught only when a test itself fails; a file that fails to start (a hook, an import) is reported as
// an error, since that is not the protection being noticed. Its list is docs/sandbox.md's list of
// protections, and issue 24's (mutations-issue24.ts); a protection added there gets a mutation here.
// A mutation of the renderer (build: true) rebuilds it before its tests and again once it is restored,
// since the browser tests serve the built renderer.

const REPO = resolve(import.meta.dirname, '../..');
const BWRAP_ARGS = 'src-main/core/exec/sandbox/bubblewrap-args.ts';
const ATTACKS = 'test/security/attacks';

const MUTATIONS: Mutation[] = [
  {
    name: 'ro-root',
    protection: 'the system read-only (--ro-bind / /)',
    file: BWRAP_ARGS,
    find: "const args = ['--ro-bind', '/', '/',",
    replace: "const args = ['--bind', '/', '/',",
    tests: ['test/integration/sandbox/sandbox.test.ts'],
  },
  {
    name: 'dev',
    protection: 'a new /dev (--dev)',
    file: BWRAP_ARGS,
    find: "'--dev', '/dev', ",
    replace: '',
    tests: [`${ATTACKS}/sandbox-mounts.test.ts`],
  },
  {
    name: 'proc',
    protection: 'a new /proc (--proc)',
    file: BWRAP_ARGS,
    find: ", '--proc', '/proc'",
    replace: '',
    tests: [`${ATTACKS}/sandbox-mounts.test.ts`],
  },
  {
    name: 'private-temp',
    protection: 'private /tmp and /var/tmp',
    file: BWRAP_ARGS,
    find: '[...plan.privateTemp, ...plan.hidden]',
    replace: '[...plan.hidden]',
    tests: [`${ATTACKS}/unix-sockets.test.ts`, `${ATTACKS}/sandbox-mounts.test.ts`],
  },
  {
    name: 'hidden',
    protection: 'homes and /run hidden (--tmpfs)',
    file: BWRAP_ARGS,
    find: '[...plan.privateTemp, ...plan.hidden]',
    replace: '[...plan.privateTemp]',
    tests: ['test/integration/sandbox/sandbox.test.ts', `${ATTACKS}/unix-sockets.test.ts`],
  },
  {
    name: 'hidden-read-only',
    protection: 'hidden folders read-only (--remount-ro)',
    file: BWRAP_ARGS,
    find: "for (const folder of plan.hidden) args.push('--remount-ro', folder);",
    replace: '',
    tests: ['test/integration/sandbox/sandbox.test.ts'],
  },
  {
    name: 'run-folders',
    protection: '/run and /var/run in the plan',
    file: 'src-main/core/exec/sandbox/sandbox-plan.ts',
    find: "const SOCKET_FOLDERS = ['/run', '/var/run'];",
    replace: 'const SOCKET_FOLDERS: string[] = [];',
    tests: [`${ATTACKS}/unix-sockets.test.ts`, `${ATTACKS}/keychain-session-bus.test.ts`],
  },
  {
    name: 'runtime-read-only',
    protection: 'runtime folders shown read-only',
    file: BWRAP_ARGS,
    find: "for (const path of readable) args.push('--ro-bind', path, path);",
    replace: "for (const path of readable) args.push('--bind', path, path);",
    tests: [`${ATTACKS}/sandbox-mounts.test.ts`],
  },
  {
    name: 'extra-read-only',
    protection: 'read-only extra paths',
    file: BWRAP_ARGS,
    find: "extra.writable ? '--bind-try' : '--ro-bind-try'",
    replace: "'--bind-try'",
    tests: [`${ATTACKS}/sandbox-mounts.test.ts`],
  },
  {
    name: 'unshare-net',
    protection: '--unshare-net',
    file: BWRAP_ARGS,
    find: "if (!plan.network) args.push('--unshare-net');",
    replace: '',
    tests: ['test/integration/sandbox/sandbox.test.ts', `${ATTACKS}/unix-sockets.test.ts`],
  },
  {
    name: 'unshare-pid',
    protection: '--unshare-pid',
    file: BWRAP_ARGS,
    find: "args.push('--unshare-pid', ",
    replace: 'args.push(',
    tests: ['test/integration/sandbox/sandbox.test.ts', `${ATTACKS}/sandbox-mounts.test.ts`],
  },
  {
    name: 'unshare-ipc',
    protection: '--unshare-ipc',
    file: BWRAP_ARGS,
    find: "'--unshare-ipc', ",
    replace: '',
    tests: [`${ATTACKS}/protection-mutations.test.ts`],
  },
  {
    name: 'unshare-cgroup',
    protection: '--unshare-cgroup-try',
    file: BWRAP_ARGS,
    find: ", '--unshare-cgroup-try'",
    replace: '',
    tests: [`${ATTACKS}/protection-mutations.test.ts`],
  },
  {
    name: 'die-with-parent',
    protection: '--die-with-parent',
    file: BWRAP_ARGS,
    find: "args.push('--die-with-parent', ",
    replace: 'args.push(',
    tests: [`${ATTACKS}/sandbox-mounts.test.ts`],
  },
  {
    name: 'cap-drop',
    protection: '--cap-drop ALL',
    file: BWRAP_ARGS,
    find: ", '--cap-drop', 'ALL'",
    replace: '',
    tests: [`${ATTACKS}/protection-mutations.test.ts`],
  },
  {
    name: 'new-session',
    protection: '--new-session for one-off programs',
    file: BWRAP_ARGS,
    find: "if (plan.newSession) args.push('--new-session');",
    replace: '',
    tests: [`${ATTACKS}/terminal-injection.test.ts`],
  },
  {
    name: 'setting-applied',
    protection: 'every run gets settings.sandbox (sandbox-policy.ts)',
    file: 'src-main/core/exec/sandbox/sandbox-policy.ts',
    find: 'run: (request) => exec.run({ ...request, sandbox: setting() }),',
    replace: 'run: (request) => exec.run(request),',
    tests: [`${ATTACKS}/protection-mutations.test.ts`],
  },
  {
    name: 'refuse-unavailable',
    protection: 'nothing runs when the sandbox is on but cannot work',
    file: 'src-main/core/exec/engine/session-router.ts',
    find: 'refusal: `The sandbox is on, but ${found.reason}. Nothing was run; turn the sandbox off to run without it.`',
    replace: 'refusal: null',
    tests: ['test/integration/sandbox/sandbox.test.ts'],
  },
  {
    name: 'probe-inside',
    protection: 'programs the code could write are asked only inside the sandbox',
    file: 'src-main/core/exec/sandbox/sandbox-probing.ts',
    find: 'if (!reaches(command)) return local.ask(command, args, asked);',
    replace: 'return local.ask(command, args, asked);',
    tests: [`${ATTACKS}/planted-programs.test.ts`],
  },
  ...ISSUE_24_MUTATIONS,
  ...ISSUE_28_MUTATIONS,
];

interface Outcome {
  mutation: Mutation;
  verdict: 'caught' | 'survived' | 'error';
  failing: string[];
}

interface TestRun {
  ok: boolean;
  /** Tests that failed (vitest's × lines). */
  failing: string[];
  /** Files or suites that failed as a whole (FAIL lines naming no test that failed). */
  broken: string[];
}

const restorers = new Map<string, string>();

function restoreAll(): void {
  for (const [file, text] of restorers) writeFileSync(file, text);
  restorers.clear();
}

function apply(mutation: Mutation): void {
  const file = join(REPO, mutation.file);
  const text = readFileSync(file, 'utf8');
  const count = text.split(mutation.find).length - 1;
  // A mutation that no longer matches would "survive" for the wrong reason: the list is out of date.
  if (count !== 1)
    throw new Error(`${mutation.name}: expected the text once in ${mutation.file}, found it ${count} times: ${mutation.find}`);
  restorers.set(file, text);
  writeFileSync(file, text.replace(mutation.find, mutation.replace));
}

function build(): void {
  const result = spawnSync('npm', ['run', 'build'], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`npm run build failed: ${result.stdout}${result.stderr}`);
}

function runTests(files: string[]): TestRun {
  const vitest = join(REPO, 'node_modules', '.bin', 'vitest');
  // Browser tests run only when a mutation names one (folders given with --full leave them out: slow).
  const exclude = files.some((f) => f.endsWith('.e2e.test.ts')) ? [] : ['--exclude', '**/*.e2e.test.ts'];
  const result = spawnSync('bash', [join(REPO, 'test/support/with-keyring.sh'), vitest, 'run', ...exclude, ...files], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    maxBuffer: 256 * 1024 * 1024,
  });
  const output = `${result.stdout}${result.stderr}`;
  const lines = output.split('\n').map((l) => l.trim());
  const failing = [...new Set(lines.filter((l) => l.startsWith('× ')).map((l) => l.slice(2).replace(/ \d+ms$/, '')))];
  const broken = [...new Set(lines.filter((l) => l.startsWith('FAIL ') && !failing.some((t) => l.endsWith(`> ${t}`))))];
  return { ok: result.status === 0, failing, broken };
}

function main(): void {
  const argv = process.argv.slice(2);
  const full = argv.includes('--full');
  const onlyAt = argv.indexOf('--only');
  const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? '').split(',')) : null;
  const chosen = MUTATIONS.filter((m) => !only || only.has(m.name));
  if (chosen.length === 0)
    throw new Error(`no mutation named ${[...(only ?? [])].join(', ')}; known: ${MUTATIONS.map((m) => m.name).join(', ')}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      restoreAll();
      process.exit(130);
    });
  }
  if (!existsSync(join(REPO, 'out', 'renderer'))) throw new Error('the renderer is not built: run `npm run build` first');
  if (!argv.includes('--no-baseline')) {
    const files = full ? [ATTACKS, 'test/integration/sandbox'] : [...new Set(chosen.flatMap((m) => m.tests))];
    process.stdout.write('baseline: the tests unmutated … ');
    const baseline = runTests(files);
    if (!baseline.ok) {
      console.log('FAILED');
      for (const line of [...baseline.failing, ...baseline.broken]) console.log(`    ${line}`);
      throw new Error('the tests fail without any mutation; fix them first');
    }
    console.log('pass');
  }
  const outcomes: Outcome[] = [];
  for (const mutation of chosen) {
    const files = full ? [ATTACKS, 'test/integration/sandbox'] : mutation.tests;
    process.stdout.write(`${mutation.name}: without ${mutation.protection} … `);
    let result: TestRun;
    try {
      apply(mutation);
      if (mutation.build) build();
      result = runTests(files);
    } finally {
      restoreAll();
      if (mutation.build) build();
    }
    const verdict = result.failing.length > 0 ? 'caught' : result.ok ? 'survived' : 'error';
    outcomes.push({ mutation, verdict, failing: result.failing });
    console.log(
      verdict === 'caught'
        ? `caught by ${result.failing.length} failing test(s)`
        : verdict === 'survived'
          ? 'SURVIVED (no test failed)'
          : 'ERROR (the tests did not run)',
    );
    for (const line of [...result.failing.slice(0, 8), ...result.broken.slice(0, 4)]) console.log(`    ${line}`);
  }
  const missed = outcomes.filter((o) => o.verdict !== 'caught');
  console.log(`\n${outcomes.length - missed.length} of ${outcomes.length} mutations caught.`);
  for (const o of missed) console.log(`${o.verdict.toUpperCase()}: ${o.mutation.name} (${o.mutation.protection})`);
  process.exitCode = missed.length > 0 ? 1 : 0;
}

main();
