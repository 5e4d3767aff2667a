import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { CPU_LOG_VARIABLE, removeEmptyGroups } from './file-cpu';
import { SKIP_LOG_VARIABLE } from './installed';

// CI reads a plain closing line ("N passed, N failed") to know tests really ran; vitest's own
// summary is not in a shape it recognises, so print one. Tests that passed only when tried again
// (test/support/timing-exposed.ts) are named above it: each is a race to find and fix, not a pass to
// forget, and one that guards security or the user's data fails the run.
// Outside CI a test whose program is missing is left out (test/support/installed.ts); one more line
// says which programs were missing and which files lost tests for it, so green never hides that.
export default class SummaryReporter implements Reporter {
  private readonly skipFolder = mkdtempSync(join(tmpdir(), 'oi-test-skips-'));
  /** When each file started and ended, in seconds from the run's start: where the workers sat idle. */
  private readonly runStart = Date.now();
  private readonly timeline = new Map<string, { start: number; end?: number }>();

  constructor() {
    // The test processes are started after the reporter and inherit this; they append to the file.
    process.env[SKIP_LOG_VARIABLE] = join(this.skipFolder, 'missing');
    process.env[CPU_LOG_VARIABLE] = join(this.skipFolder, 'cpu');
  }

  onTestModuleStart(mod: TestModule): void {
    this.timeline.set(relative(mod), { start: (Date.now() - this.runStart) / 1000 });
  }

  onTestModuleEnd(mod: TestModule): void {
    const entry = this.timeline.get(relative(mod));
    if (entry) entry.end = (Date.now() - this.runStart) / 1000;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    this.writeTimeline();
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skippedIn = new Map<string, number>();
    const flaky: string[] = [];
    for (const mod of modules) {
      // A file that failed to load or whose hooks threw has no failed test, but it did fail.
      if (mod.state() === 'failed' && [...mod.children.allTests('failed')].length === 0) failed++;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else {
          skipped++;
          const where = `${mod.moduleId.replace(`${process.cwd()}/`, '')}${noteOf(test)}`;
          skippedIn.set(where, (skippedIn.get(where) ?? 0) + 1);
        }
        if (state === 'passed' && test.diagnostic()?.flaky)
          flaky.push(`${mod.moduleId.replace(`${process.cwd()}/`, '')} > ${test.fullName}`);
      }
    }
    if (flaky.length > 0)
      process.stdout.write(`\nflaky: ${flaky.length} passed only when tried again:\n${flaky.map((name) => `  ${name}\n`).join('')}`);
    const guarding = flaky.filter(guardsSecurityOrData);
    if (guarding.length > 0) {
      // A security or data test that passes one try in two is not a pass: its race may be the attack's.
      process.stdout.write(`flaky security or data tests fail the run: ${guarding.length}\n`);
      process.exitCode = 1;
    }
    this.printCostliest();
    removeEmptyGroups();
    const missing = this.missingPrograms();
    if (skipped > 0 || missing) {
      const where = [...skippedIn].map(([file, count]) => `${file} ${count}`).join(', ');
      process.stdout.write(`\nskipped: ${skipped} tests${skipped > 0 ? ` (${where})` : ''}${missing}\n`);
    }
    process.stdout.write(
      `\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped${flaky.length > 0 ? ` (${flaky.length} flaky)` : ''}\n`,
    );
  }

  /** The files that cost the most CPU-seconds (test/support/file-cpu.ts): what to cut first. */
  private printCostliest(): void {
    let lines: string[];
    try {
      lines = readFileSync(join(this.skipFolder, 'cpu'), 'utf8').split('\n').filter(Boolean);
    } catch {
      return;
    }
    const files = lines.map((line) => line.split('\t')).map(([seconds = '0', file = '']) => ({ seconds: Number(seconds), file }));
    const total = files.reduce((sum, entry) => sum + entry.seconds, 0);
    const costliest = files.sort((a, b) => b.seconds - a.seconds).slice(0, COSTLIEST_SHOWN);
    process.stdout.write(
      `\nCPU-seconds by test file (the files' processes and their children; ${files.length} files, ${total.toFixed(0)} in all):\n`,
    );
    for (const entry of costliest) process.stdout.write(`  ${entry.seconds.toFixed(1).padStart(6)}  ${entry.file}\n`);
    // By folder too (test/e2e, test/integration/cli…): where a cut would pay, at a glance.
    const byFolder = new Map<string, number>();
    for (const { file, seconds } of files) {
      const folder = file
        .split('/')
        .slice(0, file.startsWith('test/e2e') ? 2 : 3)
        .join('/');
      byFolder.set(folder, (byFolder.get(folder) ?? 0) + seconds);
    }
    const folders = [...byFolder].sort((a, b) => b[1] - a[1]).slice(0, COSTLIEST_SHOWN);
    process.stdout.write(`by folder: ${folders.map(([folder, seconds]) => `${folder} ${seconds.toFixed(0)}`).join(', ')}\n`);
    // Every file, for a closer look after a run (test-results/ is not kept in git).
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, 'cpu-by-file.tsv'), files.map((f) => `${f.seconds.toFixed(1)}\t${f.file}\n`).join(''));
  }

  /** test-results/timeline.tsv: start and end of each file, by start (the run's tail, its idle workers). */
  private writeTimeline(): void {
    const rows = [...this.timeline].sort((a, b) => a[1].start - b[1].start);
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(
      join(RESULTS, 'timeline.tsv'),
      rows.map(([file, { start, end }]) => `${start.toFixed(1)}\t${end?.toFixed(1) ?? ''}\t${file}\n`).join(''),
    );
  }

  /** "; not installed, so their tests were left out: zsh (a.test.ts, b.test.ts), …", or "". */
  private missingPrograms(): string {
    let lines: string[];
    try {
      lines = readFileSync(join(this.skipFolder, 'missing'), 'utf8').split('\n').filter(Boolean);
    } catch {
      return '';
    } finally {
      rmSync(this.skipFolder, { recursive: true, force: true });
    }
    const filesByProgram = new Map<string, Set<string>>();
    for (const line of lines) {
      const [program = '', file = ''] = line.split('\t');
      filesByProgram.set(program, (filesByProgram.get(program) ?? new Set()).add(file));
    }
    const named = [...filesByProgram].map(([program, files]) => `${program} (${[...files].join(', ')})`);
    return `; not installed, so their tests were left out: ${named.join(', ')}`;
  }
}

const COSTLIEST_SHOWN = 25;
const RESULTS = join(import.meta.dirname, '../../test-results');

function relative(mod: TestModule): string {
  return mod.moduleId.replace(`${process.cwd()}/`, '');
}

function noteOf(test: TestCase): string {
  const result = test.result();
  return result.state === 'skipped' && result.note ? ` "${result.note}"` : '';
}

/** Tests of protections and of what keeps the user's data (checkpoints, conversations, keys, settings). */
export function guardsSecurityOrData(testName: string): boolean {
  return /^test\/(security|integration\/security|unit\/security)\/|checkpoint|conversation|secret|keychain|settings|journal/i.test(
    testName,
  );
}
