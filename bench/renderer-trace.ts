// Diagnostic: one traced open of a built renderer, printed as a timeline (ms since navigation start):
// resources, WebSocket frames, and the main thread's tasks with what they did.
// `npx tsx --tsconfig tsconfig.node.json bench/renderer-trace.ts <rendererDir> [opens]`

import { writeFileSync } from 'node:fs';
import { launchChromium } from '../test/support/browser';
import { startUiApp } from '../test/support/ui-harness';

interface Ev {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

const PROBE = `(() => {
  const log = (window.__oiLog = []);
  const Orig = WebSocket;
  const send = Orig.prototype.send;
  Orig.prototype.send = function (d) { log.push([performance.now(), 'ws send ' + String(d).slice(0, 80)]); return send.call(this, d); };
  window.WebSocket = class extends Orig { constructor(...a) { super(...a); log.push([performance.now(), 'ws new']);
    this.addEventListener('open', () => log.push([performance.now(), 'ws open']));
    this.addEventListener('message', (e) => log.push([performance.now(), 'ws recv ' + String(e.data).slice(0, 80)])); } };
  new MutationObserver((_, o) => {
    if (document.body?.dataset.ready !== 'true' || !document.querySelector('textarea[aria-label="Message"]')) return;
    o.disconnect(); performance.mark('oi-interactive'); console.debug('oi-interactive');
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
})();`;

async function main(): Promise<void> {
  const [dir, opensArg] = process.argv.slice(2);
  if (!dir) throw new Error('usage: renderer-trace.ts <rendererDir> [opens]');
  const aut = await startUiApp({ rendererDir: dir });
  const chromium = await launchChromium();
  try {
    const opens = Number(opensArg ?? 2);
    for (let i = 0; i < opens; i++) {
      const context = await chromium.browser.newContext({ viewport: { width: 1400, height: 860 } });
      const page = await context.newPage();
      await page.addInitScript({ content: PROBE });
      const traced = i === opens - 1;
      if (traced)
        await chromium.browser.startTracing(page, {
          categories: [
            'toplevel',
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'blink.user_timing',
            'v8',
            'loading',
            'netlog',
            'blink',
          ],
        });
      const usable = page.waitForEvent('console', { predicate: (m) => m.text() === 'oi-interactive', timeout: 60_000 });
      await page.goto(aut.server.launchUrl, { waitUntil: 'commit' });
      await usable;
      const info = await page.evaluate(() => {
        const mark = performance.getEntriesByName('oi-interactive')[0]?.startTime ?? -1;
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const res = performance.getEntriesByType('resource').map((e) => {
          const r = e as PerformanceResourceTiming;
          return [
            r.name.split('/').pop(),
            Math.round(r.startTime),
            Math.round(r.responseStart),
            Math.round(r.responseEnd),
            r.encodedBodySize,
            r.decodedBodySize,
          ];
        });
        const paints = performance.getEntriesByType('paint').map((p) => [p.name, Math.round(p.startTime)]);
        return {
          mark,
          nav: [
            Math.round(nav.requestStart),
            Math.round(nav.responseStart),
            Math.round(nav.responseEnd),
            Math.round(nav.domInteractive),
            Math.round(nav.domContentLoadedEventStart),
          ],
          res,
          paints,
          log: (window as unknown as { __oiLog: Array<[number, string]> }).__oiLog.map(([t, s]) => [Math.round(t), s]),
        };
      });
      console.log(`open ${i}: usable at ${Math.round(info.mark)} ms; nav req/resp/end/domInteractive/DCL ${info.nav.join(' ')}`);
      if (!traced) {
        await context.close();
        continue;
      }
      for (const r of info.res) console.log('  res', JSON.stringify(r));
      for (const p of info.paints) console.log('  paint', JSON.stringify(p));
      for (const l of info.log) console.log('  ', JSON.stringify(l));
      const buf = await chromium.browser.stopTracing();
      writeFileSync('/tmp/paint-trace.json', buf);
      const events = (JSON.parse(buf.toString('utf8')) as { traceEvents: Ev[] }).traceEvents;
      const mark = events.find((e) => e.name === 'oi-interactive');
      if (!mark) throw new Error('no mark');
      const main = events.find((e) => e.name === 'thread_name' && e.pid === mark.pid && e.args?.name === 'CrRendererMain')?.tid;
      const start = mark.ts - info.mark * 1000;
      const rel = (ts: number) => ((ts - start) / 1000).toFixed(1);
      const onMain = events.filter((e) => e.pid === mark.pid && e.tid === main && e.ts >= start - 200_000 && e.ts <= mark.ts + 1000);
      const tasks = onMain.filter((e) => e.ph === 'X' && e.name === 'RunTask' && (e.dur ?? 0) > 1000);
      const totals = new Map<string, number>();
      for (const t of tasks) {
        const inner = onMain.filter(
          (e) => e.ph === 'X' && e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + (t.dur ?? 0) && (e.dur ?? 0) > 300,
        );
        const desc = inner
          .filter((e) => e.name !== 'RunTask')
          .slice(0, 14)
          .map((e) => {
            const d = e.args?.data as { url?: string; functionName?: string } | undefined;
            const what = d?.url ? `:${String(d.url).split('/').pop()}` : d?.functionName ? `:${d.functionName}` : '';
            return `${e.name}${what} ${((e.dur ?? 0) / 1000).toFixed(1)}`;
          })
          .join(' | ');
        console.log(`  task @${rel(t.ts)} ${((t.dur ?? 0) / 1000).toFixed(1)}ms (cpu ${((t.tdur ?? 0) / 1000).toFixed(1)}): ${desc}`);
      }
      for (const e of onMain) if (e.ph === 'X' && e.ts >= start) totals.set(e.name, (totals.get(e.name) ?? 0) + (e.dur ?? 0));
      console.log(
        '  totals:',
        [...totals]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 25)
          .map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`)
          .join(', '),
      );
      await context.close();
    }
  } finally {
    await chromium.close();
    await aut.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
