import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stdoutOf, useHarness } from '../../support/exec-harness';
import { installed } from '../../support/installed';

// R's one-shot fallback, forced the way a broken install would force it: a resources folder without
// the runner. Each cell is its own Rscript, whose RtmpXXXXXX must not outlive the run, killed or not.

/** What the code printed, after the line saying the cell ran as a separate process. */
function printed(result: Parameters<typeof stdoutOf>[0]): string[] {
  return stdoutOf(result)
    .replace(/\r\n/g, '\n')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('[the persistent R session'));
}

describe.runIf(installed('Rscript'))('r without its runner', () => {
  let resources: string;
  beforeAll(async () => {
    resources = await mkdtemp(join(tmpdir(), 'oi-no-runners-'));
  });
  // Registered before the harness: after-hooks run last-registered first, so this runs after its close.
  afterAll(async () => {
    await rm(resources, { recursive: true, force: true });
  });
  const h = useHarness(() => ({ resourcesDir: resources }));

  it("keeps each run's tempdir() in the run's own folder under the engine's temp root, removed when the run ends", async () => {
    const result = await h.run(
      'r',
      'writeLines("scratch", file.path(tempdir(), "scratch.txt"))\ncat(tempdir(), Sys.getenv("TMPDIR"), sep = "\\n")',
    );
    expect(result.status, result.forModel).toBe('done');
    expect(result.forModel).toMatch(
      /^\[the persistent R session could not start \(the R runner is missing .*\); this cell ran as a separate R process/,
    );
    const [rtmp = '', envTmp = ''] = printed(result);
    expect(basename(rtmp)).toMatch(/^Rtmp/);
    // <tmpRoot>/oi-r-XXXXXX/tmp/RtmpXXXXXX, with TMPDIR the run folder's tmp: not the system temp dir.
    expect(dirname(rtmp)).toBe(envTmp);
    expect(envTmp.startsWith(h.tmpRoot + sep)).toBe(true);
    expect(dirname(dirname(envTmp))).toBe(h.tmpRoot);
    expect(existsSync(join(tmpdir(), basename(rtmp)))).toBe(false);
    // The run is over: its folder went with it.
    expect(existsSync(dirname(envTmp))).toBe(false);
  });

  it('removes the temp folder of a run R could not clean up (killed)', async () => {
    const killed = await h.run('r', 'cat(tempdir(), "\\n")\ntools::pskill(Sys.getpid(), 9)\nSys.sleep(30)');
    expect(killed.status, killed.forModel).toBe('failed');
    expect(killed.forModel).toContain('killed by SIGKILL');
    const [rtmp = ''] = printed(killed);
    expect(basename(rtmp)).toMatch(/^Rtmp/);
    expect(rtmp.startsWith(h.tmpRoot + sep)).toBe(true);
    expect(existsSync(rtmp)).toBe(false);
    expect(existsSync(dirname(dirname(rtmp)))).toBe(false);
    // Nothing of any run is left under the engine's temp root, and the next run's temp files work.
    expect(await readdir(h.tmpRoot)).toEqual([]);
    const next = await h.run('r', 'f <- tempfile(fileext = ".txt")\nwriteLines("ok", f)\ncat(readLines(f))');
    expect(printed(next)).toEqual(['ok']);
  });
});
