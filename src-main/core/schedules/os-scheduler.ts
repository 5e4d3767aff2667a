import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Schedule, ScheduleRunner } from '@contract';
import { runAppProgram, SYSTEM_PATH } from '../programs/app-programs';
import {
  launchdLabel,
  launchdPlist,
  runCommand,
  systemdService,
  systemdTimer,
  taskName,
  taskSchedulerXml,
  unitName,
  type OiCommand,
} from './os-units';
import { isTimed } from './schedule-times';

// Putting a task into the operating system's own scheduler, so it runs with the app closed: a
// systemd user timer (Linux), a launchd agent (macOS), a Task Scheduler task (Windows). Where none
// answers (a container, a Linux without a user manager), the app runs its tasks while it is open
// (in-app-scheduler.ts), and `oi schedule add` says so.

export interface RunnerChoice {
  runner: ScheduleRunner;
  /** Why the in-app scheduler, when it is the fallback. */
  note: string | null;
}

/** systemctl and launchctl reach the person's session through these; nothing else of the app's environment. */
function sessionEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const keep = ['XDG_RUNTIME_DIR', 'DBUS_SESSION_BUS_ADDRESS', 'HOME', 'USER'];
  return { PATH: SYSTEM_PATH, LANG: 'C', ...Object.fromEntries(keep.filter((k) => env[k]).map((k) => [k, env[k]])) };
}

export async function chooseRunner(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Promise<RunnerChoice> {
  if (env.OI_SCHEDULER === 'in-app') return { runner: 'in-app', note: 'OI_SCHEDULER=in-app asks for the app’s own scheduler' };
  if (platform === 'linux') {
    const answer = await runAppProgram('systemctl', ['--user', 'show-environment'], { env: sessionEnv(env) });
    if (answer.ok) return { runner: 'systemd', note: null };
    const why = answer.stderr.trim().split('\n')[0] || 'it did not answer';
    return { runner: 'in-app', note: `no systemd user manager answers here (systemctl --user: ${why})` };
  }
  if (platform === 'darwin') return { runner: 'launchd', note: null };
  if (platform === 'win32') return { runner: 'task-scheduler', note: null };
  return { runner: 'in-app', note: `${platform} has no scheduler oi knows` };
}

export function systemdUserDir(env: NodeJS.ProcessEnv): string {
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'systemd', 'user');
}

const launchAgentFile = (id: string) => path.join(os.homedir(), 'Library', 'LaunchAgents', `${launchdLabel(id)}.plist`);

async function must(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const result = await runAppProgram(name, args, { env: sessionEnv(env), timeoutMs: 30_000 });
  if (!result.ok) throw new Error(`${name} ${args.join(' ')} failed: ${result.stderr.trim() || 'no reason given'}`);
}

/** Writes the task's unit files and starts its timer; returns the files written. Nothing for an in-app task. */
export async function installTask(schedule: Schedule, base: OiCommand, dataDir: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  if (schedule.runner === 'in-app' || !isTimed(schedule.when)) return [];
  const command = runCommand(base, schedule, dataDir);
  if (schedule.runner === 'systemd') {
    const dir = systemdUserDir(env);
    await mkdir(dir, { recursive: true });
    const service = path.join(dir, `${unitName(schedule.id)}.service`);
    const timer = path.join(dir, `${unitName(schedule.id)}.timer`);
    await writeFile(service, systemdService(schedule, command), { mode: 0o600 });
    await writeFile(timer, systemdTimer(schedule), { mode: 0o600 });
    await must('systemctl', ['--user', 'daemon-reload'], env);
    await must('systemctl', ['--user', 'enable', '--now', `${unitName(schedule.id)}.timer`], env);
    return [service, timer];
  }
  if (schedule.runner === 'launchd') {
    const file = launchAgentFile(schedule.id);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, launchdPlist(schedule, command), { mode: 0o600 });
    await must('launchctl', ['bootstrap', `gui/${os.userInfo().uid}`, file], env);
    return [file];
  }
  const file = path.join(dataDir, 'schedule-units', `${schedule.id}.xml`);
  await mkdir(path.dirname(file), { recursive: true });
  // schtasks reads the XML as UTF-16, as the declaration says.
  await writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(taskSchedulerXml(schedule, command), 'utf16le')]));
  await must('schtasks', ['/Create', '/TN', taskName(schedule.id), '/XML', file, '/F'], env);
  return [file];
}

/** Stops and removes the task's unit files; a part already gone is not an error. */
export async function uninstallTask(schedule: Schedule, dataDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  if (schedule.runner === 'in-app' || !isTimed(schedule.when)) return;
  if (schedule.runner === 'systemd') {
    const dir = systemdUserDir(env);
    await runAppProgram('systemctl', ['--user', 'disable', '--now', `${unitName(schedule.id)}.timer`], { env: sessionEnv(env) });
    await rm(path.join(dir, `${unitName(schedule.id)}.timer`), { force: true });
    await rm(path.join(dir, `${unitName(schedule.id)}.service`), { force: true });
    await runAppProgram('systemctl', ['--user', 'daemon-reload'], { env: sessionEnv(env) });
  } else if (schedule.runner === 'launchd') {
    await runAppProgram('launchctl', ['bootout', `gui/${os.userInfo().uid}/${launchdLabel(schedule.id)}`], { env: sessionEnv(env) });
    await rm(launchAgentFile(schedule.id), { force: true });
  } else {
    await runAppProgram('schtasks', ['/Delete', '/TN', taskName(schedule.id), '/F'], { env: sessionEnv(env) });
    await rm(path.join(dataDir, 'schedule-units', `${schedule.id}.xml`), { force: true });
  }
}
