import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { defaultSettings } from '@contract';
import { describe, expect, it } from 'vitest';
import { stdoutOf, useHarness } from '../../support/exec-harness';

describe('large outputs', () => {
  const h = useHarness();

  // 200 MB through a pty and into a file: past the suite's 60 s at a load of ~25 (on main as well);
  // a bound of its own, not a timing assertion.
  it('caps 200 MB of output for the UI, spills it to a file and gives the model head and tail', { timeout: 180_000 }, async () => {
    const cap = 4 * 1024 * 1024;
    const line = 'the quick brown fox jumps over the lazy dog 0123456789';
    let terminalBytes = 0;
    let batches = 0;
    let peakRss = 0;
    const baseRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 25);
    const result = await h.service
      .run({
        conversationId: 'conv-1',
        workspace: h.workspace,
        language: 'bash',
        code: `echo FIRST; yes '${line}' | head -c 200000000; echo; echo LAST`,
        settings: { ...defaultSettings.exec, outputCapBytes: cap, modelOutputChars: 4000, timeoutMs: 120_000 },
        onTerminal: (text) => {
          terminalBytes += Buffer.byteLength(text);
          batches++;
        },
        runId: 'big-output',
      })
      .finally(() => clearInterval(sampler));
    expect(result.status).toBe('done');
    // The UI got the cap, not 200 MB, in few large batches, then the note.
    expect(terminalBytes).toBeGreaterThan(cap - 1024);
    expect(terminalBytes).toBeLessThan(cap + 1024);
    expect(batches).toBeLessThan(1000);
    const ui = stdoutOf(result);
    expect(ui.length).toBeLessThan(cap + 1024);
    expect(ui).toMatch(/… \d+\.\d MB more, saved to .*\.oi\/outputs\/big-output\.log/);
    // Head and tail (issue 12 #8), not a slice from the start: the first line and the last are both kept.
    expect(ui.startsWith(`FIRST\n${line}`)).toBe(true);
    // (head -c cuts the last line of `yes`; the echo ends it.)
    expect(ui.slice(-3 * line.length)).toMatch(new RegExp(`${line}\\n[a-z ]*\\nLAST\\n$`));
    // The link to the whole output: the file's size (LF line ends) and its lines (FIRST, the full lines
    // of `yes`, the one head cut, LAST).
    expect(result.fullOutput).toEqual({ path: '.oi/outputs/big-output.log', bytes: 6 + 200_000_000 + 1 + 5, lines: 3_636_366 });
    // The file holds the whole output with plain newlines.
    const spill = `${h.workspace}/.oi/outputs/big-output.log`;
    expect((await stat(spill)).size).toBeGreaterThan(200_000_000);
    // Its first 100 bytes and its last 100 (not the whole 200 MB read into the test's memory).
    const file = await open(spill);
    const ends = Buffer.alloc(200);
    await file.read(ends, 0, 100, 0);
    await file.read(ends, 100, 100, (await file.stat()).size - 100);
    await file.close();
    const head = ends.subarray(0, 100).toString('utf8');
    expect(ends.subarray(100).toString('utf8')).toMatch(/\n[a-z ]*\nLAST\n$/);
    expect(head).toBe(`FIRST\n${line}\n`.concat(line).slice(0, 100));
    // The model sees both ends and how much was left out.
    expect(result.forModel.startsWith('FIRST\n')).toBe(true);
    expect(result.forModel).toMatch(/LAST\n… .* more, saved to/);
    expect(result.forModel).toMatch(/… [\d,]+ characters \([\d,]+ lines\) elided …/);
    expect(result.forModel.length).toBeLessThan(4000 + 400);
    // Main's memory stays bounded by the cap and the batch sizes, not the output's size.
    expect(peakRss - baseRss).toBeLessThan(300 * 1024 * 1024);
  });

  it("keeps its spill folder out of git status in the person's repository; without its .gitignore, git would list it", async () => {
    const git = (...args: string[]) => execFileSync('git', ['-C', h.workspace, ...args], { encoding: 'utf8' });
    git('init', '-q');
    // 20,000 lines (~110 KB): past the 64 KB cap, so the output spills to the folder the test is about.
    const result = await h.run('bash', 'seq 1 20000', { settings: { outputCapBytes: 64 * 1024, modelOutputChars: 1000 } });
    expect(result.forModel).toMatch(/more, saved to .*\.oi\/outputs\//);
    expect(readFileSync(`${h.workspace}/.oi/.gitignore`, 'utf8')).toMatch(/^\*$/m);
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');
    // Twin: the same folder without the file is what git would show the person.
    rmSync(`${h.workspace}/.oi/.gitignore`);
    expect(git('status', '--porcelain')).toBe('?? .oi/\n');
  });

  it('handles a long output without any newline', async () => {
    // 3 MB on one line: three times the 1 MB cap (it was 30 MB; the size past the cap is what counts,
    // and 200 MB of lines is the test above's).
    const result = await h.run('bash', "head -c 3000000 /dev/zero | tr '\\0' x", {
      settings: { outputCapBytes: 1024 * 1024, modelOutputChars: 1000 },
    });
    expect(result.status).toBe('done');
    expect(result.forModel).toMatch(/^x+\n… 2,99\d,\d{3} characters elided …\nx+\n… /);
  });

  it('caps a Python runner printing line by line the same way', async () => {
    // 100,000 rows (~1.1 MB): four times the 256 KB cap (it was 400,000).
    const result = await h.run('python', 'for i in range(100_000):\n    print("row", i)\nprint("end")', {
      settings: { outputCapBytes: 256 * 1024, modelOutputChars: 1000 },
    });
    expect(result.status).toBe('done');
    expect(result.forModel).toMatch(/^row 0\nrow 1\n/);
    expect(result.forModel).toMatch(/row 99999\nend\n… .* more, saved to /);
    expect(stdoutOf(result).length).toBeLessThan(256 * 1024 + 512);
    expect(stdoutOf(result)).toMatch(/^row 0\nrow 1\n[\s\S]*saved to [\s\S]*\nrow 99999\nend\n$/);
  });
});
