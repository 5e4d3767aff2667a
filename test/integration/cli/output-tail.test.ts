import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultSettings } from '@contract';
import { describe, expect, it } from 'vitest';
import { cliEnv, runOi } from '../../support/cli-process';
import { shellCall, useCliFixtures } from './support/oi-terminal-run';

// Issue 25 items 4 and 5: what oi shows of a long run — the real head and tail, one file with all of
// it, labels that say what is there, and the latest lines while the program still runs.

const { setUp, terminal } = useCliFixtures();

/** Every file under a folder (recursively), relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('a run longer than the screen', { timeout: 120_000 }, () => {
  // The engine's cap is set low (64 KB) so a 20,000-line print passes it as a million lines pass the
  // default 8 MB one: the same path (live output stops at the cap, the rest goes to the spill file), at
  // a fiftieth of the CPU.
  it('past the engine’s cap shows the real last lines and names the one file that holds all of the output', async () => {
    const { llm, dir, flags } = await setUp();
    const settings = { ...defaultSettings, exec: { ...defaultSettings.exec, outputCapBytes: 64 * 1024 } };
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings));
    llm.enqueue(shellCall('many', "seq -f 'line %07g' 1 20000"), { kind: 'text', text: 'Printed.' });
    const workspace = path.join(dir, 'ws');
    const result = await runOi([...flags, '--workspace', workspace, '-y', '-m', 'print many lines'], cliEnv(dir));
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    // The head as it came, then — the lines after it being held back, said at once — the count and the file.
    const first = lines.indexOf('line 0000001');
    expect(lines.slice(first, first + 60)).toEqual(Array.from({ length: 60 }, (_, i) => `line ${String(i + 1).padStart(7, '0')}`));
    expect(lines[first + 60]).toBe('… more than 60 lines: the rest is held, and its last 30 shown when the run ends');
    const note = lines.find((l) => l.includes('not shown'));
    const file = /^… 19,910 lines not shown; all of the output \(\d+(\.\d+)? KB\): (\S+\.log)$/.exec(note ?? '')?.[2];
    expect(note).toBeDefined();
    expect(file).toBeDefined();
    // The real tail: the last 30 lines of the output, the last one among them.
    const after = lines.indexOf(note ?? '');
    expect(lines.slice(after + 1, after + 31)).toEqual(Array.from({ length: 30 }, (_, i) => `line ${String(19_971 + i).padStart(7, '0')}`));
    // The file named holds all of the output, whole lines, up to the last.
    expect(path.isAbsolute(file ?? '')).toBe(true);
    const full = readFileSync(file ?? '', 'utf8');
    expect(full.split('\n').slice(0, -1)).toHaveLength(20_000);
    expect(full.endsWith('line 0020000\n')).toBe(true);
    // …and it is the only copy: oi keeps no second, partial one in the data folder.
    expect(filesUnder(path.join(dir, 'cli-output')).filter((f) => f.endsWith('.log'))).toEqual([]);
  });

  it('shows the latest lines while the program runs, redrawn in place, then the head, a count and the tail', async () => {
    const { llm, dir, flags } = await setUp();
    const workspace = path.join(dir, 'ws');
    // 90 lines, then the program waits for the test's go-ahead: whatever is on screen meanwhile was shown live.
    const code = [
      "for i in $(seq 1 90); do printf 'tick %04d\\n' $i; done",
      'touch printed',
      'while [ ! -e go ]; do sleep 0.05; done',
      "for i in $(seq 91 150); do printf 'tick %04d\\n' $i; done",
    ].join('\n');
    llm.enqueue(shellCall('ticks', code), { kind: 'text', text: 'Ticked.' });
    // A terminal that takes colour: the only kind a view can be redrawn on.
    const oi = terminal([...flags, '--workspace', workspace, '-y'], cliEnv(dir, { NO_COLOR: '' }));
    await oi.expect('> ');
    oi.line('tick');
    await oi.expect('tick 0090');
    expect(existsSync(path.join(workspace, 'printed'))).toBe(true);
    const live = await oi.screen();
    // The head, then the count line and the latest ten lines; the earlier views were redrawn over, not left above.
    expect(live).toContain('tick 0060');
    expect(live).toContain('… 30 lines after the first 60; the latest:');
    for (let i = 81; i <= 90; i++) expect(live).toContain(`tick ${String(i).padStart(4, '0')}`);
    expect(live.filter((row) => /^tick 00(6[1-9]|7\d|80)$/.test(row))).toEqual([]);
    expect(live.filter((row) => row.includes('the latest:'))).toHaveLength(1);

    writeFileSync(path.join(workspace, 'go'), '');
    await oi.expect('Ticked.');
    const end = await oi.screen();
    // (The note's path is longer than the screen is wide: it is read whole from the output.)
    const log = /… 60 lines not shown; all of the output: (\S+\.log)\r?\n/.exec(oi.output)?.[1];
    expect(log).toBeDefined();
    const note = end.find((row) => row.startsWith('… 60 lines not shown; all of the output: '));
    // The live view is gone: the head, the note and the last 30 lines stand in its place.
    expect(end.filter((row) => row.includes('the latest:'))).toEqual([]);
    const at = end.indexOf(note ?? '');
    expect(end[at - 1]).toBe('tick 0060');
    const below = end.slice(at + 1).filter((row) => !log?.includes(row));
    expect(below.slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, i) => `tick ${String(121 + i).padStart(4, '0')}`));
    expect(readFileSync(log ?? '', 'utf8').match(/^tick \d{4}$/gm)).toHaveLength(150);
  });
});
