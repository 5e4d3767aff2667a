// The UI bench's startup part: how long from navigation until the message box can be used, in browser
// mode, for the renderer as built (minified, views and heavy libraries in chunks loaded on demand) and,
// as the anchor built and measured in the same run, the renderer as it was before code splitting (one
// unminified chunk, everything evaluated up front), so the ratio holds on a loaded machine.

import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { startUiApp } from '../test/support/ui-harness';
import { REPO_ROOT } from '../test/support/app-under-test';

export interface StartupFigures {
  /** Median ms from navigation start to "usable": the app's data loaded, the App mounted, the message box there. */
  interactiveMs: number;
  /** Median CPU ms the page's main thread spent until then (trace thread time): what load cannot inflate. */
  mainThreadCpuMs: number;
  /** JavaScript the page fetched before it was usable (bytes, decoded). */
  scriptBytes: number;
  /** Median ms to usable in the traced opens (tracing the timeline slows the page; shown for comparison). */
  tracedMs: number;
  runs: Array<{ wallMs: number; cpuMs: number; tracedMs: number }>;
}

/**
 * The anchor: the renderer as it was before code splitting (main at this commit), built as electron-vite
 * built it then — one chunk, unminified, every view and library evaluated at startup. Move it forward
 * only if it stops working with today's server (it must still speak the contract's requests).
 */
export const BEFORE_SPLITTING = 'bbc9b5033843c8c955c63f479f02f85ba53343b7';

/** Builds the renderer of a past commit (git archive of src-renderer and the contract) into a temporary folder. */
export async function buildRendererAt(ref: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'oi-renderer-at-'));
  const remove = () => rm(root, { recursive: true, force: true });
  try {
    const archive = spawnSync('git', ['archive', '--format=tar', ref, 'src-renderer', 'src-preload/contract'], {
      cwd: REPO_ROOT,
      maxBuffer: 256 * 1024 * 1024,
    });
    if (archive.status !== 0) throw new Error(`git archive ${ref} failed (a shallow clone lacks it?): ${archive.stderr.toString().trim()}`);
    const untar = spawnSync('tar', ['-x', '-C', root], { input: archive.stdout });
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr.toString().trim()}`);
    // Its imports resolve against today's packages.
    await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
    const out = path.join(root, 'out');
    await build({
      configFile: false,
      logLevel: 'warn',
      root: path.join(root, 'src-renderer'),
      base: './',
      plugins: [react()],
      resolve: { alias: { '@contract': path.join(root, 'src-preload', 'contract', 'index.ts') } },
      build: {
        outDir: out,
        emptyOutDir: true,
        minify: false,
        target: 'chrome140',
        modulePreload: { polyfill: false },
        rollupOptions: { input: path.join(root, 'src-renderer', 'index.html') },
      },
    });
    return { dir: out, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}

/**
 * Opens each build's app `runs` times, taking turns (so load on the machine falls on both alike), each
 * time in a fresh browser context (no cache, as at launch) and traced: when the page marked itself
 * usable, and how much CPU its main thread used until then.
 */
export async function measureStartups(browser: Browser, builds: Record<string, string>, runs = 9): Promise<Record<string, StartupFigures>> {
  const apps = await Promise.all(
    Object.entries(builds).map(async ([name, dir]) => [name, await startUiApp({ rendererDir: dir })] as const),
  );
  const samples = new Map(apps.map(([name]) => [name, { runs: [] as StartupFigures['runs'], scriptBytes: 0 }]));
  try {
    for (let i = 0; i < runs; i++) {
      for (const [name, aut] of apps) {
        const sample = samples.get(name);
        if (!sample) continue;
        // Each run opens the page twice: untraced for the time (the timeline trace's own recording
        // slows the page), then traced for the main thread's CPU, which the recording hardly moves.
        const [wallMs, , bytes] = await openOnce(browser, aut.server.launchUrl, false);
        const [tracedMs, cpuMs] = await openOnce(browser, aut.server.launchUrl, true);
        sample.runs.push({ wallMs: Math.round(wallMs), cpuMs: Math.round(cpuMs), tracedMs: Math.round(tracedMs) });
        sample.scriptBytes = bytes;
      }
    }
  } finally {
    await Promise.all(apps.map(([, aut]) => aut.close()));
  }
  const out: Record<string, StartupFigures> = {};
  for (const [name, s] of samples) {
    out[name] = {
      interactiveMs: median(s.runs.map((r) => r.wallMs)),
      mainThreadCpuMs: median(s.runs.map((r) => r.cpuMs)),
      tracedMs: median(s.runs.map((r) => r.tracedMs)),
      scriptBytes: s.scriptBytes,
      runs: s.runs,
    };
  }
  return out;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * One navigation: [wall ms from navigationStart to the page's "oi-interactive" mark, CPU ms of the
 * renderer's main thread between them (NaN when not traced), script bytes fetched by then].
 */
async function openOnce(browser: Browser, url: string, traced: boolean): Promise<[number, number, number]> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
  try {
    const page = await context.newPage();
    // Injected before the page's own scripts (the app's CSP does not apply to it).
    await page.addInitScript({ content: PROBE });
    if (traced)
      await browser.startTracing(page, {
        categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'],
      });
    // Told by the page itself (a console message): waiting with a selector would have Playwright
    // evaluate its own script engine in the page while the page starts, on the same main thread.
    const usable = page.waitForEvent('console', { predicate: (m) => m.text() === 'oi-interactive', timeout: 60_000 });
    await page.goto(url, { waitUntil: 'commit' });
    await usable;
    // The mark's time is ms since navigation start; in the trace it has a timestamp of its own.
    const [at, bytes] = await page.evaluate(() => {
      const mark = performance.getEntriesByName('oi-interactive')[0]?.startTime ?? Infinity;
      const fetched = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.endsWith('.js') && (e as PerformanceResourceTiming).responseEnd <= mark)
        .reduce((sum, e) => sum + (e as PerformanceResourceTiming).decodedBodySize, 0);
      return [mark, fetched];
    });
    if (!traced) return [at, NaN, bytes];
    const events = (JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
    const mark = events.find((e) => e.name === 'oi-interactive');
    if (!mark) throw new Error('the page never marked itself usable');
    const main = events.find((e) => e.name === 'thread_name' && e.pid === mark.pid && e.args?.name === 'CrRendererMain')?.tid;
    if (main === undefined) throw new Error("the trace lacks the page's main thread");
    const start = mark.ts - at * 1000;
    const cpu = events
      .filter((e) => e.pid === mark.pid && e.tid === main && e.ph === 'X' && e.name === 'RunTask' && e.ts >= start && e.ts <= mark.ts)
      .reduce((sum, e) => sum + (e.tdur ?? 0), 0);
    return [at, cpu / 1000, bytes];
  } finally {
    await context.close();
  }
}

/** Marks "oi-interactive" (a user-timing mark, so it lands in the trace) once the page is usable, and says so on the console. */
const PROBE = `new MutationObserver((_, observer) => {
  if (document.body?.dataset.ready !== 'true' || !document.querySelector('textarea[aria-label="Message"]')) return;
  observer.disconnect();
  performance.mark('oi-interactive');
  console.debug('oi-interactive');
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0);
}
