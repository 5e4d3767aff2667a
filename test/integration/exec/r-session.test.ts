import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { RunResult } from '../../../src-main/core/exec/engine/types';
import { stderrOf, stdoutOf, streamTextOf, useHarness } from '../../support/exec-harness';
import { installed } from '../../support/installed';

// What R sessions do beyond the contract every persistent language keeps (session-behaviour.test.ts).
// .ci/run installs r-base-core; a machine without it skips these rather than failing.
describe.runIf(installed('Rscript'))('r sessions', () => {
  const h = useHarness();

  it("keeps functions and libraries between runs, apart from the runner's own state", async () => {
    const first = await h.run('r', 'library(tools)\nx <- 41\ninc <- function(v) v + 1');
    expect(first.status, first.forModel).toBe('done');
    expect(first.outputs).toEqual([]);
    const second = await h.run('R', 'cat(inc(x), file_ext("a.txt"), "\\n")\nls()');
    expect(stdoutOf(second)).toBe('42 txt \n');
    // The runner's own state is not in the user's environment.
    expect(second.forModel).toMatch(/\[1\] "inc" +"x" *$/);
  });

  it('shows the visible value of the last expression as a result, earlier ones on the terminal', async () => {
    const result = await h.run('r', 'invisible(1)\n"first"\ny <- 2\n6 * 7');
    expect(result.status).toBe('done');
    expect(result.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: '[1] "first"\n' },
      { output_type: 'execute_result', execution_count: result.executionCount, data: { 'text/plain': '[1] 42' }, metadata: {} },
    ]);
  });

  it('returns an error with its class, message and call, and the session lives on', async () => {
    const result = await h.run('r', 'boom <- function() stop("bad value")\nkept <- 1\nboom()');
    expect(result.status).toBe('failed');
    const error = result.outputs.find((o) => o.output_type === 'error');
    expect(error).toMatchObject({
      output_type: 'error',
      ename: 'simpleError',
      evalue: 'bad value',
      traceback: ['Error in boom() : bad value', 'Calls: boom -> stop'],
    });
    expect(result.forModel).toContain('Error in boom() : bad value');
    expect((await h.run('r', 'kept + 1')).forModel).toBe('[1] 2');
  });

  it('runs a large cell and shows nested calls of an error', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `v${i % 100} <- "line ${i} with \\"quotes\\" and \\u00e9 é"`);
    const big = await h.run('r', `${lines.join('\n')}\nidentical(v99, "line 19999 with \\"quotes\\" and \\u00e9 é")`);
    expect(big.status, big.forModel).toBe('done');
    expect(big.forModel).toBe('[1] TRUE');
    const result = await h.run('r', 'outer <- function() inner(1)\ninner <- function(n) log(-n) + sqrt("a")\nouter()');
    expect(result.outputs.find((o) => o.output_type === 'error')).toMatchObject({
      evalue: 'non-numeric argument to mathematical function',
      traceback: ['Error in sqrt("a") : non-numeric argument to mathematical function', 'Calls: outer -> inner'],
    });
    expect(stderrOf(result)).toContain('Warning in log(-n) : NaNs produced');
  });

  it('reports a parse error as a failed run', async () => {
    const result = await h.run('r', 'f <- function(');
    expect(result.status).toBe('failed');
    expect(result.outputs.find((o) => o.output_type === 'error')).toMatchObject({ output_type: 'error', ename: 'simpleError' });
  });

  it('prints warnings and messages to stderr, and Unicode to the terminal', async () => {
    const result = await h.run('r', 'cat("héllo → 世界 🎉\\n")\nmessage("to stderr")\nw <- as.integer("x")\ncat("after\\n")');
    expect(result.status).toBe('done');
    // Warnings and messages are stderr, in their place among the printed text.
    expect(stderrOf(result)).toContain('to stderr\n');
    expect(stderrOf(result)).toContain('NAs introduced by coercion');
    const text = streamTextOf(result);
    expect(text).toContain('héllo → 世界 🎉\n');
    expect(text).toContain('to stderr\n');
    expect(text).toContain('Warning in');
    expect(text).toContain('NAs introduced by coercion');
    expect(text.indexOf('NAs introduced')).toBeLessThan(text.indexOf('after'));
  });

  it('turns a base-graphics plot into an image/png output and cleans up its file', async () => {
    const result = await h.run('r', 'plot(1:10)\ninvisible(NULL)');
    expect(result.status, result.forModel).toBe('done');
    const png = result.outputs.find((o) => o.output_type === 'display_data' && typeof o.data['image/png'] === 'string');
    const data = png?.output_type === 'display_data' ? (png.data['image/png'] as string) : '';
    const bytes = Buffer.from(data, 'base64');
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.toString('base64')).toBe(data);
    const leftovers = (await readdir(h.tmpRoot, { recursive: true })).filter((f) => f.endsWith('.png'));
    expect(leftovers).toEqual([]);
    const pages = await h.run('r', 'plot(1:3)\nhist(c(1, 2, 2, 3))');
    expect(pages.outputs.filter((o) => o.output_type === 'display_data')).toHaveLength(2);
  });

  it('ends a run that leaves a sink() open, and the next cell can close it', async () => {
    const sunk = await h.run('r', 'sink_file <- tempfile()\nsink(sink_file)\ncat("into the sink\\n")', { settings: { timeoutMs: 15_000 } });
    expect(sunk.status).toBe('done');
    expect(stdoutOf(sunk)).not.toContain('into the sink');
    const after = await h.run('r', 'sink()\ncat("back on the terminal\\n")\nreadLines(sink_file)');
    expect(after.status).toBe('done');
    expect(stdoutOf(after)).toContain('back on the terminal');
    expect(after.forModel).toContain('into the sink');
  });
});

/** The path an R run printed as its last value, e.g. `[1] "/tmp/…"`. */
function printedPath(result: RunResult): string {
  return /^\[1\] "(.*)"$/.exec(result.forModel)?.[1] ?? '';
}

describe.runIf(installed('Rscript'))('r temp folder and display()', () => {
  const h = useHarness();

  it("keeps R's tempdir() in the session's own folder, which the engine removes even after SIGKILL", async () => {
    const first = await h.run('r', 'writeLines("scratch", file.path(tempdir(), "scratch.txt"))\ntempdir()');
    expect(first.status, first.forModel).toBe('done');
    const rtmp = printedPath(first);
    expect(basename(rtmp)).toMatch(/^Rtmp/);
    // <tmpRoot>/oi-r-XXXXXX/tmp/RtmpXXXXXX: inside the folder the engine made for this session,
    // not beside the other programs' folders in the system temp dir.
    expect(rtmp.startsWith(h.tmpRoot + sep)).toBe(true);
    const sessionDir = dirname(dirname(rtmp));
    expect(dirname(sessionDir)).toBe(h.tmpRoot);
    expect(existsSync(join(tmpdir(), basename(rtmp)))).toBe(false);
    expect(existsSync(join(rtmp, 'scratch.txt'))).toBe(true);

    const killed = await h.run('r', 'tools::pskill(Sys.getpid(), 9)');
    expect(killed.status).toBe('died');
    // R could not remove its folder; the engine's disposal of the dead session does.
    await vi.waitFor(() => expect(existsSync(sessionDir)).toBe(false), { timeout: 15_000, interval: 50 });
    expect(existsSync(rtmp)).toBe(false);

    // The next session has a folder of its own, and R's temp files work there.
    const next = await h.run('r', 'f <- tempfile(fileext = ".txt")\nwriteLines("ok", f)\nreadLines(f)');
    expect(next.forModel).toMatch(/\[1\] "ok"$/);
    expect(printedPath(await h.run('r', 'tempdir()')).startsWith(h.tmpRoot + sep)).toBe(true);
  });

  // What display() does in every language is runner-display.test.ts; these are R's own.
  it('prints a rich value as its text, and keeps the helpers on the search path', async () => {
    // print() of one shows its text, not the value with its class attribute.
    const printed = await h.run('r', 'print(HTML("<p>printed</p>"))\nprint(Markdown("*md*"))\ninvisible(0)');
    expect(stdoutOf(printed).replace(/\r\n/g, '\n')).toBe('<p>printed</p>\n*md*\n');
    // The helpers are on the search path, not among the user's variables.
    const own = await h.run('r', 'c(exists("display"), exists("display", envir = globalenv(), inherits = FALSE))');
    expect(own.forModel).toBe('[1]  TRUE FALSE');
  });
});

describe.runIf(installed('Rscript'))('r files helper', () => {
  const h = useHarness();

  it("is on the search path, not among the user's objects, and survives a user's own `files`", async () => {
    const result = await h.run(
      'r',
      'mine <- 1\nprint(ls())\nprint(c(exists("files"), exists("files", envir = globalenv(), inherits = FALSE)))\nfiles',
    );
    expect(result.status, result.forModel).toBe('done');
    expect(stdoutOf(result)).toBe('[1] "mine"\n[1]  TRUE FALSE\n');
    expect(result.outputs.find((o) => o.output_type === 'execute_result')).toMatchObject({
      data: { 'text/plain': `<files: read, write, list, delete, search, exists, path; relative paths are in ${h.workspace}>` },
    });
    // A common R name: the user's `files` hides the helper until it is removed. The helper's own code
    // does not see the user's objects (a redefined paste0 here).
    const masked = await h.run(
      'r',
      'files <- list.files()\npaste0 <- function(...) stop("mine")\nrm(files)\nfiles$write("masked.txt", "ok")\nrm(paste0)\ntext <- files$read("masked.txt")\nfiles$delete("masked.txt")\ntext',
    );
    expect(masked.status, masked.forModel).toBe('done');
    expect(masked.forModel).toBe('[1] "ok"');
  });

  // What every language's helper does is test/integration/exec/runner-helpers.test.ts; these are R's own.
  it('writes a character vector as lines, and search() gives typed columns', async () => {
    const result = await h.run(
      'r',
      'files$write("notes/c.txt", c("one", "needle two"))\nfound <- files$search("needle")\nprint(vapply(found, class, ""))\nfiles$delete("notes", recursive = TRUE)',
    );
    expect(result.status, result.forModel).toBe('done');
    expect(stdoutOf(result)).toBe('       path        line        text \n"character"   "integer" "character" \n');
  });

  it('fails with classed R errors, with the call in the traceback, caught by their common class', async () => {
    const missing = await h.run('r', 'files$read("missing.txt")');
    const path = join(h.workspace, 'missing.txt');
    expect(missing.outputs.find((o) => o.output_type === 'error')).toMatchObject({
      ename: 'oi_files_not_found',
      evalue: `no such file or directory: '${path}'`,
      traceback: [`Error in files$read("missing.txt") : no such file or directory: '${path}'`, 'Calls: files$read -> stop'],
    });
    const caught = await h.run('r', 'tryCatch(files$read("missing.txt"), oi_files_error = function(e) cat(class(e)[1], e$path))');
    expect(stdoutOf(caught)).toBe(`oi_files_not_found ${path}`);
  });
});

describe.runIf(installed('Rscript') && installed('bwrap'))('r in the sandbox', () => {
  const h = useHarness();

  it('has a writable tempdir() there', async () => {
    const code = 'f <- tempfile()\nwriteLines("ok", f)\ncat(readLines(f), file.access(tempdir(), 2) == 0, "\\n")';
    const result = await h.run('r', code, {
      sandbox: { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] },
    });
    expect(result.status, result.forModel).toBe('done');
    expect(stdoutOf(result)).toBe('ok TRUE \n');
  });
});
