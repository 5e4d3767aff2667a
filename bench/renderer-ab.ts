// Built renderers side by side: `npx tsx --tsconfig tsconfig.node.json bench/renderer-ab.ts <dirA> <dirB>… [--runs=N]`
// opens each in turn (bench/renderer-startup.ts), so load on the machine falls on both alike, and prints
// the medians and every run. For comparing a change against the build before it on a loaded machine.

import os from 'node:os';
import { launchChromium } from '../test/support/browser';
import { measureStartups } from './renderer-startup';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dirs = args.filter((a) => !a.startsWith('--'));
  const runs = Number(args.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 9);
  if (dirs.length < 2) throw new Error('usage: renderer-ab.ts <rendererDirA> <rendererDirB>… [--runs=N]');
  const chromium = await launchChromium();
  try {
    const load0 = os.loadavg()[0];
    const figures = await measureStartups(
      chromium.browser,
      Object.fromEntries(dirs.map((d, i) => [`${String.fromCharCode(65 + i)} ${d}`, d])),
      runs,
    );
    const load1 = os.loadavg()[0];
    for (const [name, f] of Object.entries(figures)) {
      console.log(
        `${name}: usable ${f.interactiveMs} ms (traced ${f.tracedMs}), CPU ${f.mainThreadCpuMs} ms, ${Math.round(f.scriptBytes / 1024)} KB; ` +
          `walls ${f.runs.map((r) => r.wallMs).join(' ')}; cpus ${f.runs.map((r) => r.cpuMs).join(' ')}`,
      );
    }
    console.log(`load average (1 min) ${load0?.toFixed(1)} → ${load1?.toFixed(1)}`);
  } finally {
    await chromium.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
