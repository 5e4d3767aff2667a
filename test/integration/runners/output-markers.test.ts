import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installed } from '../../support/installed';
import { NODE_RUNNER, PYTHON_RUNNER, REPO, type RunOutcome, Runner, until } from '../../support/runner-harness';

// The runners' side of output position markers (docs/exec-protocol.md): before each output of a run
// a marker `OSC 633;P;OiOutput=<nonce>:<seq>` goes to the terminal after the text printed so far,
// and the output carries the same seq; between runs no marker is written.

interface RunnerCase {
  name: string;
  available: boolean;
  command: string;
  args: string[];
  /** Prints a, displays A, prints b, displays B, prints c, ends with a value shown as a result. */
  cell: string;
  /** Starts a thread/timer that displays after the cell has ended. */
  late: string;
}

const CASES: RunnerCase[] = [
  {
    name: 'python',
    available: true,
    command: 'python3',
    args: [PYTHON_RUNNER],
    cell: 'print("a")\ndisplay(HTML("A"))\nprint("b")\ndisplay(HTML("B"))\nprint("c")\n6 * 7',
    late: 'import threading, time\nthreading.Thread(target=lambda: (time.sleep(0.3), display(HTML("late")))).start()',
  },
  {
    name: 'javascript',
    available: true,
    command: process.execPath,
    args: [NODE_RUNNER],
    cell: 'console.log("a")\ndisplay(HTML("A"))\nconsole.log("b")\ndisplay(HTML("B"))\nconsole.log("c")\n6 * 7',
    late: 'void setTimeout(() => display(HTML("late")), 300)',
  },
  {
    name: 'ruby',
    available: installed('ruby'),
    command: 'ruby',
    args: [path.join(REPO, 'resources/runners/ruby/oi_runner.rb')],
    cell: 'puts "a"\ndisplay(HTML("A"))\nputs "b"\ndisplay(HTML("B"))\nputs "c"\n6 * 7',
    late: 'Thread.new { sleep 0.3; display(HTML("late")) }\nnil',
  },
];

/** The text before each marker, as it was in the terminal. */
function textBeforeMarkers(o: RunOutcome): string[] {
  return o.markers.map((m) => o.bytes.subarray(0, m.at).toString('utf8').replace(/\r\n/g, '\n'));
}

for (const c of CASES) {
  describe.runIf(c.available)(`${c.name} runner markers`, () => {
    let runner: Runner;
    beforeAll(async () => {
      runner = await Runner.start({ command: c.command, args: c.args });
    });
    afterAll(async () => {
      await runner.close();
    });

    it('says it speaks protocol 2', () => {
      expect(runner.hello).toMatchObject({ protocol: 2 });
    });

    it('writes one marker per output, after the text printed before it, numbered like the output', async () => {
      for (let round = 0; round < 2; round++) {
        const o = await runner.run(c.cell);
        expect(o.ok).toBe(true);
        expect(o.outputs.map((x) => x.output_type)).toEqual(['display_data', 'display_data', 'execute_result']);
        // Numbers start at 0 in every run.
        expect(o.seqs).toEqual([0, 1, 2]);
        expect(o.markers.map((m) => m.seq)).toEqual([0, 1, 2]);
        expect(textBeforeMarkers(o)).toEqual(['a\n', 'a\nb\n', 'a\nb\nc\n']);
        expect(o.text).toBe('a\nb\nc\n');
      }
    });

    it('sends an output made between runs without a number or a marker', async () => {
      const first = await runner.run(c.late);
      expect(first.markers).toEqual([]);
      await until(() => runner.stray.some((m) => m.type === 'output'));
      const late = runner.stray.find((m) => m.type === 'output')!;
      expect(late.output).toMatchObject({ data: { 'text/html': 'late' } });
      expect(late.seq).toBeUndefined();
      expect(runner.unclaimedText).not.toContain('OiOutput');
      const next = await runner.run('1');
      expect(next.markers.map((m) => m.seq)).toEqual([0]);
      expect(next.text).toBe('');
    });
  });
}
