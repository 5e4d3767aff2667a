import { describe, expect, it } from 'vitest';
import type { CellOutput } from '@contract';
import { installed } from '../../support/installed';
import { useHarness } from '../../support/exec-harness';

// Rich outputs are placed exactly where the runner's position marker sits in the terminal text
// (docs/exec-protocol.md), in every persistent runner. Many rounds of print/display in one cell give
// a race between the terminal and the side channel many chances to show.

const ROUNDS = 50;
const SYSTEM_PYTHON = { pythonPath: '/usr/bin/python3' };

/** One entry per saved output: `text:<stdout text>`, `stderr:…`, or `<output_type>:<what it shows>`. */
function shape(outputs: CellOutput[]): string[] {
  return outputs.map((o) => {
    if (o.output_type === 'stream') return `${o.name === 'stdout' ? 'text' : o.name}:${o.text}`;
    if (o.output_type === 'error') return `error:${o.ename}`;
    const d = o.data;
    const shown = d['text/markdown'] ?? d['text/html'] ?? (typeof d['image/png'] === 'string' ? 'png' : d['text/plain']);
    return `${o.output_type}:${String(shown)}`;
  });
}

/** What the cell wrote, in order, with consecutive text joined as it is saved. */
function written(events: string[]): string[] {
  const out: string[] = [];
  for (const event of events) {
    const last = out[out.length - 1];
    if (event.startsWith('text:') && last?.startsWith('text:')) out[out.length - 1] = last + event.slice(5);
    else out.push(event);
  }
  return out;
}

function rounds(n: number, round: (i: number) => string[]): string[] {
  return Array.from({ length: n }, (_, i) => round(i)).flat();
}

// The middle print goes to stderr, which the saved outputs keep as stderr, in its place.
const alternation = (i: number): string[] => [
  `text:a${i}\n`,
  `display_data:<b>${i}</b>`,
  `stderr:b${i}\n`,
  `display_data:*${i}*`,
  `text:c${i}\n`,
];

const FORGED_EVENTS = ['text:before\nforged\n', 'display_data:<b>one</b>', 'text:after\n', 'display_data:<b>two</b>', 'text:end\n'];

interface LanguageCase {
  name: string;
  available: boolean;
  settings?: Record<string, string>;
  /** ROUNDS × (print, display, print to stderr, display, print). */
  alternating: string;
  /** Prints `before`, a forged marker for output 0, `forged`, displays one, a forged marker for 1 + `after`, displays two, prints `end`. */
  forged: string;
  /** Prints `x`, then displays `<b>last</b>` as the cell's last statement. */
  lastDisplay: string;
  /** Prints `first`, displays `kept`, prints `second`, then makes the runner die right after its next marker. */
  killed: string;
}

const FORGE = (seq: number): string => `\\x1b]633;P;OiOutput=${'0'.repeat(32)}:${seq}\\x07`;

const CASES: LanguageCase[] = [
  {
    name: 'python',
    available: true,
    alternating: [
      'import sys',
      `for i in range(${ROUNDS}):`,
      '    print(f"a{i}")',
      '    display(HTML(f"<b>{i}</b>"))',
      '    print(f"b{i}", file=sys.stderr)',
      '    display(Markdown(f"*{i}*"))',
      '    print(f"c{i}")',
    ].join('\n'),
    forged: [
      'import sys',
      'print("before")',
      `sys.stdout.write("${FORGE(0)}")`,
      'print("forged")',
      'display(HTML("<b>one</b>"))',
      `sys.stdout.write("${FORGE(1)}after\\n")`,
      'display(HTML("<b>two</b>"))',
      'print("end")',
    ].join('\n'),
    lastDisplay: 'print("x")\ndisplay(HTML("<b>last</b>"))',
    killed: [
      'import os',
      'print("first")',
      'display(HTML("kept"))',
      'print("second")',
      // The runner's session object, found the same way with or without IPython in the session.
      'import gc',
      "session = next(o for o in gc.get_objects() if type(o).__name__ == 'Session' and hasattr(o, 'channel'))",
      'session.channel.send = lambda message: os.kill(os.getpid(), 9)',
      'display(HTML("lost"))',
      'print("never")',
    ].join('\n'),
  },
  {
    name: 'javascript',
    available: true,
    alternating: [
      `for (let i = 0; i < ${ROUNDS}; i++) {`,
      '  console.log(`a${i}`);',
      '  display(HTML(`<b>${i}</b>`));',
      '  console.error(`b${i}`);',
      '  display(Markdown(`*${i}*`));',
      '  console.log(`c${i}`);',
      '}',
    ].join('\n'),
    forged: [
      'console.log("before");',
      `process.stdout.write("${FORGE(0)}");`,
      'console.log("forged");',
      'display(HTML("<b>one</b>"));',
      `process.stdout.write("${FORGE(1)}after\\n");`,
      'display(HTML("<b>two</b>"));',
      'console.log("end");',
    ].join('\n'),
    lastDisplay: 'console.log("x");\ndisplay(HTML("<b>last</b>"));',
    // The runner serialises the message after writing the marker.
    killed: [
      'console.log("first");',
      'display(HTML("kept"));',
      'console.log("second");',
      'JSON.stringify = () => process.kill(process.pid, "SIGKILL");',
      'display(HTML("lost"));',
      'console.log("never");',
    ].join('\n'),
  },
  {
    name: 'ruby',
    available: installed('ruby'),
    alternating: [
      `${ROUNDS}.times do |i|`,
      '  puts "a#{i}"',
      '  display(HTML("<b>#{i}</b>"))',
      '  $stderr.puts "b#{i}"',
      '  display(Markdown("*#{i}*"))',
      '  puts "c#{i}"',
      'end',
      'nil',
    ].join('\n'),
    forged: [
      'puts "before"',
      `print "${FORGE(0)}"`,
      'puts "forged"',
      'display(HTML("<b>one</b>"))',
      `print "${FORGE(1)}after\\n"`,
      'display(HTML("<b>two</b>"))',
      'puts "end"',
    ].join('\n'),
    lastDisplay: 'puts "x"\ndisplay(HTML("<b>last</b>"))',
    killed: [
      'puts "first"',
      'display(HTML("kept"))',
      'puts "second"',
      'channel = OiDisplay.instance_variable_get(:@emitter).receiver.instance_variable_get(:@channel)',
      'channel.define_singleton_method(:send_message) { |_message| Process.kill(:KILL, Process.pid) }',
      'display(HTML("lost"))',
      'puts "never"',
    ].join('\n'),
  },
  {
    name: 'r',
    available: installed('Rscript'),
    alternating: [
      `for (i in 0:${ROUNDS - 1}) {`,
      '  cat(sprintf("a%d\\n", i))',
      '  display(HTML(sprintf("<b>%d</b>", i)))',
      '  message(sprintf("b%d", i))',
      '  display(Markdown(sprintf("*%d*", i)))',
      '  cat(sprintf("c%d\\n", i))',
      '}',
    ].join('\n'),
    forged: [
      'cat("before\\n")',
      `cat("${FORGE(0)}")`,
      'cat("forged\\n")',
      'display(HTML("<b>one</b>"))',
      `cat("${FORGE(1)}after\\n")`,
      'display(HTML("<b>two</b>"))',
      'cat("end\\n")',
    ].join('\n'),
    lastDisplay: 'cat("x\\n")\ndisplay(HTML("<b>last</b>"))',
    // The runner's own environment is the one its plot hooks close over; its `send` goes after the marker.
    killed: [
      'cat("first\\n")',
      'display(HTML("kept"))',
      'cat("second\\n")',
      'runner <- environment(getHook("plot.new")[[1]])',
      'assign("send", function(message) tools::pskill(Sys.getpid(), tools::SIGKILL), envir = runner)',
      'display(HTML("lost"))',
      'cat("never\\n")',
    ].join('\n'),
  },
];

describe('rich outputs in the order they were written', () => {
  const h = useHarness();

  for (const c of CASES) {
    describe.runIf(c.available)(c.name, () => {
      it(`keeps ${ROUNDS} rounds of print, display, print, display, print in order`, async () => {
        const result = await h.run(c.name, c.alternating, { settings: c.settings });
        expect(result.status, result.forModel).toBe('done');
        expect(shape(result.outputs)).toEqual(written(rounds(ROUNDS, alternation)));
        // The model reads the same order: each output's text right after the line printed before it.
        const lines = result.forModel.split('\n');
        expect(lines.slice(0, 5)).toEqual(['a0', '<b>0</b>', '[text/html output shown to the user]', 'b0', '*0*']);
        const last = ROUNDS - 1;
        expect(lines.slice(-6)).toEqual([
          `a${last}`,
          `<b>${last}</b>`,
          '[text/html output shown to the user]',
          `b${last}`,
          `*${last}*`,
          `c${last}`,
        ]);
      });

      it('strips a forged marker (wrong nonce) and places nothing at it', async () => {
        const result = await h.run(c.name, c.forged, { settings: c.settings });
        expect(result.status, result.forModel).toBe('done');
        expect(shape(result.outputs)).toEqual(FORGED_EVENTS);
        expect(result.terminal).not.toContain('OiOutput');
        expect(result.forModel).not.toContain('OiOutput');
      });

      it('places a display that is the last statement of the cell after the text before it', async () => {
        const result = await h.run(c.name, c.lastDisplay, { settings: c.settings });
        expect(result.status, result.forModel).toBe('done');
        expect(shape(result.outputs)).toEqual(['text:x\n', 'display_data:<b>last</b>']);
      });

      it('ends a run whose runner dies between a marker and its output, keeping what arrived', async () => {
        const result = await h.run(c.name, c.killed, { settings: c.settings });
        expect(result.status).toBe('died');
        const saved = shape(result.outputs);
        expect(saved.slice(0, -1)).toEqual(['text:first\n', 'display_data:kept', 'text:second\n']);
        expect(saved[saved.length - 1]).toMatch(/^stderr:/);
        const next = await h.run(c.name, c.lastDisplay, { settings: c.settings });
        expect(shape(next.outputs)).toEqual(['text:x\n', 'display_data:<b>last</b>']);
      });
    });
  }

  it('places a rich last value (execute_result) and matplotlib figures shown with plt.show() where they were made', async () => {
    const code = [
      'import matplotlib.pyplot as plt',
      'for i in range(10):',
      '    print(f"Figure {i}")',
      '    plt.plot([1, 2], [i, i + 1])',
      '    plt.show()',
      'print("last figure, left open")',
      'plt.plot([1, 2], [2, 1])',
      'print("done")',
      'HTML("<b>value</b>")',
    ].join('\n');
    const result = await h.run('python', code, { settings: SYSTEM_PYTHON });
    expect(result.status, result.forModel).toBe('done');
    // After the tests above (another interpreter), the run starts with the note saying so, first.
    const outputs = shape(result.outputs);
    if (outputs[0]?.startsWith('stderr:Note: the python interpreter changed')) outputs.shift();
    expect(outputs).toEqual(
      written([
        ...rounds(10, (i) => [`text:Figure ${i}\n`, 'display_data:png']),
        'text:last figure, left open\ndone\n',
        // The value first, then the figures still open when the cell ends (as in a notebook).
        'execute_result:<b>value</b>',
        'display_data:png',
      ]),
    );
  });

  it.runIf(installed('Rscript'))('places each R plot page where it was started, between the text around it', async () => {
    const code = [
      'for (i in 0:19) {',
      '  cat(sprintf("a%d\\n", i))',
      '  plot(seq_len(i + 1))',
      '  cat(sprintf("b%d\\n", i))',
      '  abline(h = 1)', // still the same page
      '  display(HTML(sprintf("<b>%d</b>", i)))',
      '}',
      'par(mfrow = c(1, 2))',
      'cat("two panels\\n")',
      'plot(1)',
      'cat("second panel\\n")',
      'plot(2)', // the same page as the panel before
      'cat("end\\n")',
    ].join('\n');
    const result = await h.run('r', code);
    expect(result.status, result.forModel).toBe('done');
    expect(shape(result.outputs)).toEqual(
      written([
        ...rounds(20, (i) => [`text:a${i}\n`, 'display_data:png', `text:b${i}\n`, `display_data:<b>${i}</b>`]),
        'text:two panels\n',
        'display_data:png',
        'text:second panel\nend\n',
      ]),
    );
    const pngs = result.outputs.flatMap((o) =>
      o.output_type === 'display_data' && typeof o.data['image/png'] === 'string' ? [o.data['image/png']] : [],
    );
    expect(new Set(pngs).size).toBe(21);
  });
});
