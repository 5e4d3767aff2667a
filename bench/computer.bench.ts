// Computer-use benchmark (issue 32), under Xvfb at 1920×1080: a screenshot made model-ready (xwd, read,
// the app's windows blacked out, scaled to Anthropic's limit, the pointer drawn, PNG) beside a bare
// `xwd -root` (the anchor: the X server's own capture, read by nothing), and one action's round trip
// (a click at a screenshot point: the lock check, the app's windows looked up, the click) beside a bare
// `xdotool mousemove click` (its anchor). Targets: ≤ 150 ms and ≤ 50 ms. Each pair runs in the same
// rounds, taking turns, so a change in load reaches both alike; medians, and the ratio to the anchor.
// Also the app's own CPU time for a screenshot (its reading, black-out, scaling and PNG; xwd's is
// not counted), which the load on the machine changes far less than the wall clock; and each phase
// of a screenshot on its own, wall and CPU: the capture (xwd into the app's file, read), the look
// (pointer, size, the app's windows: beside the capture in a screenshot), the scaling, the pointer
// drawn, the PNG. The second anchor, a bare `xwd -root` into a file, is the capture's floor.
// Run: npm run bench -- computer   (writes bench/results/computer.json)

import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync, openSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ComputerControl } from '../src-main/core/computer/computer-control';
import { imageLimitFor, scaledSize } from '../src-main/core/computer/screen-geometry';
import { drawPointer, encodePng, scaleDown, wholeScreen } from '../src-main/core/computer/screen-image';
import { X11Screen } from '../src-main/core/computer/x11-screen';
import { summarize } from './stats';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.COMPUTER_RUNS ?? 15);
const run = promisify(execFile);

const server = spawn('/usr/bin/Xvfb', ['-displayfd', '3', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp', '-noreset'], {
  stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
});
const [line] = (await once(createInterface({ input: server.stdio[3] as NodeJS.ReadableStream }), 'line')) as [string];
const display = `:${line.trim()}`;
const env = { PATH: '/usr/bin:/bin', DISPLAY: display };
const control = new ComputerControl(new X11Screen({ display }), { pids: [process.pid], windowIds: [] }, 0);
const limit = imageLimitFor('anthropic');
const never = new AbortController().signal;

const time = async (f: () => Promise<unknown>): Promise<number> => {
  const start = performance.now();
  await f();
  return performance.now() - start;
};

/** This process's own CPU time for `f` (user + system), in ms: what the app spends, whatever the load does to the wall clock. */
const cpu = async (f: () => Promise<unknown>): Promise<number> => {
  const start = process.cpuUsage();
  await f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

/** A bare `xwd -root` with its stdout on a file (as the app runs it), the file then dropped: the capture's floor. */
const xwdToFile = async (): Promise<void> => {
  const path = join(os.tmpdir(), `computer-bench-${process.pid}.xwd`);
  const fd = openSync(path, 'wx+', 0o600);
  unlinkSync(path);
  try {
    await once(spawn('/usr/bin/xwd', ['-root', '-silent'], { env, stdio: ['ignore', fd, 'ignore'] }), 'close');
  } finally {
    closeSync(fd);
  }
};

/** Each phase of one screenshot on its own, wall and this process's CPU (ms), by name. */
const phases: Record<string, { wall: number[]; cpu: number[] }> = {};
const phase = async <T>(name: string, f: () => T | Promise<T>): Promise<T> => {
  const [start, used] = [performance.now(), process.cpuUsage()];
  const result = await f();
  const cpuUsed = process.cpuUsage(used);
  const p = (phases[name] ??= { wall: [], cpu: [] });
  p.wall.push(performance.now() - start);
  p.cpu.push((cpuUsed.user + cpuUsed.system) / 1000);
  return result;
};
const screen = control.screen;
const phased = async (): Promise<void> => {
  const image = await phase('capture', () => screen.capture());
  const seen = await phase('look', () => screen.look([process.pid]));
  const scaled = await phase('scale', () => scaleDown(image, wholeScreen(image), scaledSize(image, limit)));
  await phase('pointer', () => drawPointer(scaled, seen.pointer, image));
  await phase('png', () => encodePng(scaled));
  screen.recycle(image);
};

const shot: number[] = [];
const shotCpu: number[] = [];
const bareXwd: number[] = [];
const bareXwdFile: number[] = [];
const click: number[] = [];
const bareClick: number[] = [];
await control.screenshot(limit); // warm: the programs found, the code compiled
for (let round = 0; round < RUNS; round++) {
  const first = round % 2 === 0;
  if (first) bareXwd.push(await time(() => run('/usr/bin/xwd', ['-root', '-silent'], { env, encoding: 'buffer', maxBuffer: 64 << 20 })));
  shot.push(await time(() => control.screenshot(limit)));
  shotCpu.push(await cpu(() => control.screenshot(limit)));
  if (!first) bareXwd.push(await time(() => run('/usr/bin/xwd', ['-root', '-silent'], { env, encoding: 'buffer', maxBuffer: 64 << 20 })));
  bareXwdFile.push(await time(xwdToFile));
  await phased();
  const [x, y] = [200 + round, 300];
  if (first)
    bareClick.push(await time(() => run('/usr/bin/xdotool', ['mousemove', '--sync', String(x), String(y), 'click', '1'], { env })));
  // The action alone: the screenshot that answers it is measured above.
  click.push(await time(() => control.act({ action: 'click', x, y }, never)));
  if (!first)
    bareClick.push(await time(() => run('/usr/bin/xdotool', ['mousemove', '--sync', String(x), String(y), 'click', '1'], { env })));
}
control.screen.close();
server.kill();
const median = (xs: number[]) => summarize(xs).median;
const rows = {
  load: os.loadavg()[0],
  runs: RUNS,
  screenshotMs: median(shot),
  bareXwdMs: median(bareXwd),
  screenshotOverXwd: median(shot.map((s, i) => s / (bareXwd[i] ?? NaN))),
  bareXwdToFileMs: median(bareXwdFile),
  screenshotOverXwdToFile: median(shot.map((s, i) => s / (bareXwdFile[i] ?? NaN))),
  screenshotCpuMs: median(shotCpu),
  ...Object.fromEntries(
    Object.entries(phases).flatMap(([name, p]) => [
      [`${name}Ms`, median(p.wall)],
      [`${name}CpuMs`, median(p.cpu)],
    ]),
  ),
  actionMs: median(click),
  bareXdotoolMs: median(bareClick),
  actionOverXdotool: median(click.map((c, i) => c / (bareClick[i] ?? NaN))),
};
console.table(rows);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'computer.json'), `${JSON.stringify(rows, null, 2)}\n`);
