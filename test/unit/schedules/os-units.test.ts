import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schedule, ScheduleWhen } from '@contract';
import {
  calendarIntervals,
  launchdPlist,
  onCalendar,
  runCommand,
  systemdService,
  systemdTimer,
  taskSchedulerXml,
  windowsQuote,
} from '../../../src-main/core/schedules/os-units';
import { nextDue } from '../../../src-main/core/schedules/schedule-times';
import { installed } from '../../support/installed';

// The files each OS scheduler reads, checked exactly, and read back by the tools that parse them here:
// systemd-analyze (the timer's times, and the units as systemd loads them), Python's plistlib (the
// launchd agent) and an XML parser (the Windows task). The in-app scheduler's own times are checked
// against systemd's, across a daylight-saving change.

const SYSTEMD_ANALYZE = installed('systemd-analyze');

const task = (when: ScheduleWhen): Schedule => ({
  id: 'report-ab12',
  name: 'Morning report <&> "quoted"',
  prompt: 'never in a unit file',
  workspace: '/home/p/reports',
  model: null,
  when,
  policy: { sandbox: 'required', code: 'auto-run', budgetUsd: 1, timeLimitMinutes: 30 },
  runner: 'systemd',
  createdAt: '2026-12-01T00:00:00.000Z',
});
const WEEKLY: ScheduleWhen = { kind: 'weekly', days: ['fri', 'mon'], time: '09:30' };
// A data folder with a space, a percent sign and a dollar: each scheduler's own quoting must keep them.
const DATA = '/home/p/My Data/100%/$HOME';
const COMMAND = runCommand(
  { program: '/usr/bin/node', args: ['/opt/oi app/bin/oi.mjs'], env: { PATH: '/usr/local/bin:/usr/bin' } },
  task(WEEKLY),
  DATA,
);

describe('systemd', () => {
  it('writes the service and timer exactly, the command line quoted for systemd', () => {
    expect(systemdService(task(WEEKLY), COMMAND)).toBe(
      '[Unit]\nDescription="Open Interpreter scheduled task: Morning report <&> \\"quoted\\""\n\n' +
        '[Service]\nType=oneshot\nEnvironment="PATH=/usr/local/bin:/usr/bin"\n' +
        'ExecStart="/usr/bin/node" "/opt/oi app/bin/oi.mjs" "schedule" "run" "report-ab12" "--trigger" "time" "--data-dir" "/home/p/My Data/100%%/$$HOME"\n',
    );
    expect(systemdTimer(task(WEEKLY))).toBe(
      '[Unit]\nDescription="Open Interpreter scheduled task: Morning report <&> \\"quoted\\""\n\n' +
        '[Timer]\nOnCalendar=Mon,Fri *-*-* 09:30:00\nPersistent=true\nUnit=oi-schedule-report-ab12.service\n\n[Install]\nWantedBy=timers.target\n',
    );
  });

  it('never fires a one-off at a minute the clocks skip, as systemd never does', () => {
    process.env.TZ = 'Europe/Paris';
    try {
      expect(nextDue({ kind: 'once', at: '2026-03-29T02:30' }, new Date(2026, 0, 1))).toBeNull();
    } finally {
      delete process.env.TZ;
    }
  });

  it('maps every kind of time to one OnCalendar expression', () => {
    expect(onCalendar({ kind: 'every', unit: 'minutes', n: 15 })).toBe('*-*-* *:00/15:00');
    expect(onCalendar({ kind: 'every', unit: 'hours', n: 6 })).toBe('*-*-* 00/6:00:00');
    expect(onCalendar({ kind: 'once', at: '2026-12-24T09:00' })).toBe('2026-12-24 09:00:00');
    expect(() => onCalendar({ kind: 'manual' })).toThrow(/no time for an OS scheduler/);
  });

  describe.skipIf(!SYSTEMD_ANALYZE)('read back by systemd-analyze', () => {
    let dir: string;
    let tz: string | undefined;
    beforeAll(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'oi-units-'));
      tz = process.env.TZ;
      // Node takes a new TZ at once: the in-app times below are Paris's, as systemd-analyze's are.
      process.env.TZ = 'Europe/Paris';
    });
    afterAll(() => {
      rmSync(dir, { recursive: true, force: true });
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    });

    it('loads the units without a complaint (systemd-analyze verify)', () => {
      const service = path.join(dir, 'oi-schedule-report-ab12.service');
      const timer = path.join(dir, 'oi-schedule-report-ab12.timer');
      // The program must exist for verify: this Node.
      const command = { ...COMMAND, program: process.execPath };
      writeFileSync(service, systemdService(task(WEEKLY), command));
      writeFileSync(timer, systemdTimer(task(WEEKLY)));
      const out = execFileSync('systemd-analyze', ['verify', '--man=no', timer, service], { encoding: 'utf8', stdio: 'pipe' });
      expect(out).toBe('');
    });

    // Paris's clocks skip 02:00-03:00 on 29 March 2026 and repeat 02:00-03:00 on 25 October.
    const KINDS: Array<[string, ScheduleWhen, string]> = [
      ['weekly, spring', WEEKLY, '2026-03-28 22:50:00'],
      ['Sunday 02:30, spring (skipped that day)', { kind: 'weekly', days: ['sun'], time: '02:30' }, '2026-03-28 22:50:00'],
      ['Sunday 02:30, autumn (the first of the two)', { kind: 'weekly', days: ['sun'], time: '02:30' }, '2026-10-24 22:50:00'],
      ['every 15 minutes, spring', { kind: 'every', unit: 'minutes', n: 15 }, '2026-03-29 01:20:00'],
      ['every 15 minutes, autumn', { kind: 'every', unit: 'minutes', n: 15 }, '2026-10-25 01:50:00'],
      ['every 8 hours, spring', { kind: 'every', unit: 'hours', n: 8 }, '2026-03-28 22:50:00'],
      ['every hour, autumn', { kind: 'every', unit: 'hours', n: 1 }, '2026-10-25 00:50:00'],
      ['once', { kind: 'once', at: '2026-03-30T02:30' }, '2026-03-28 22:50:00'],
    ];
    describe('the in-app scheduler is due exactly when the systemd timer elapses, across daylight-saving changes', () => {
      it.each(KINDS)('%s', (_, when, base) => {
        const out = execFileSync('systemd-analyze', ['calendar', `--base-time=${base}`, '--iterations=5', onCalendar(when)], {
          encoding: 'utf8',
          env: { ...process.env, TZ: 'Europe/Paris' },
        });
        const systemd = [...out.matchAll(/\(in UTC\): \w+ (\S+) (\S+) UTC/g)].map((m) => `${m[1]}T${m[2]}.000Z`);
        const ours: string[] = [];
        const [d, t0] = base.split(' ') as [string, string];
        const [y, mo, day] = d.split('-').map(Number) as [number, number, number];
        const [h, m] = t0.split(':').map(Number) as [number, number];
        for (let t = nextDue(when, new Date(y, mo - 1, day, h, m)); t && ours.length < 5; t = nextDue(when, t)) ours.push(t.toISOString());
        expect(systemd.length).toBeGreaterThan(0);
        expect(ours).toEqual(systemd);
      });
    });
  });
});

describe('launchd', () => {
  it('writes the agent exactly, readable by plistlib with the same command line', () => {
    const plist = launchdPlist(task(WEEKLY), COMMAND);
    expect(plist).toContain(
      '\t<key>ProgramArguments</key>\n\t<array>\n\t\t<string>/usr/bin/node</string>\n\t\t<string>/opt/oi app/bin/oi.mjs</string>\n' +
        '\t\t<string>schedule</string>\n\t\t<string>run</string>\n\t\t<string>report-ab12</string>\n\t\t<string>--trigger</string>\n' +
        '\t\t<string>time</string>\n\t\t<string>--data-dir</string>\n\t\t<string>/home/p/My Data/100%/$HOME</string>\n\t</array>\n',
    );
    const read = JSON.parse(
      execFileSync('python3', ['-c', 'import json,plistlib,sys; print(json.dumps(plistlib.loads(sys.stdin.buffer.read())))'], {
        input: plist,
        encoding: 'utf8',
      }),
    ) as Record<string, unknown>;
    expect(read).toEqual({
      Label: 'com.openinterpreter.oi.schedule.report-ab12',
      ProgramArguments: ['/usr/bin/node', ...COMMAND.args],
      EnvironmentVariables: { PATH: '/usr/local/bin:/usr/bin' },
      StartCalendarInterval: [
        { Weekday: 1, Hour: 9, Minute: 30 },
        { Weekday: 5, Hour: 9, Minute: 30 },
      ],
    });
  });

  it('repeats an interval as calendar entries from midnight, and a one-off by month and day', () => {
    expect(calendarIntervals({ kind: 'every', unit: 'minutes', n: 20 })).toEqual([{ Minute: 0 }, { Minute: 20 }, { Minute: 40 }]);
    expect(calendarIntervals({ kind: 'every', unit: 'hours', n: 8 })).toEqual([
      { Hour: 0, Minute: 0 },
      { Hour: 8, Minute: 0 },
      { Hour: 16, Minute: 0 },
    ]);
    expect(calendarIntervals({ kind: 'once', at: '2026-12-24T09:05' })).toEqual([{ Month: 12, Day: 24, Hour: 9, Minute: 5 }]);
  });
});

describe('Windows Task Scheduler', () => {
  it('writes the task exactly: trigger, catch-up, time limit and the quoted command line', () => {
    const text = taskSchedulerXml(task(WEEKLY), COMMAND);
    expect(text).toContain(
      '    <CalendarTrigger>\n      <StartBoundary>2026-01-01T09:30:00</StartBoundary>\n' +
        '      <ScheduleByWeek>\n        <DaysOfWeek><Monday /><Friday /></DaysOfWeek>\n        <WeeksInterval>1</WeeksInterval>\n      </ScheduleByWeek>\n    </CalendarTrigger>\n',
    );
    expect(text).toContain('<StartWhenAvailable>true</StartWhenAvailable>');
    expect(text).toContain('<ExecutionTimeLimit>PT35M</ExecutionTimeLimit>');
    expect(text).toContain(
      '<Command>/usr/bin/node</Command>\n      <Arguments>&quot;/opt/oi app/bin/oi.mjs&quot; schedule run report-ab12 --trigger time --data-dir &quot;/home/p/My Data/100%/$HOME&quot;</Arguments>',
    );
    expect(text).toContain('<Description>Open Interpreter scheduled task: Morning report &lt;&amp;&gt; &quot;quoted&quot;</Description>');
    // Well-formed, with the arguments read back as written.
    const args = execFileSync(
      'python3',
      [
        '-c',
        'import sys,xml.etree.ElementTree as E; t=E.fromstring(sys.stdin.buffer.read().decode().split("?>",1)[1]); ns={"t":"http://schemas.microsoft.com/windows/2004/02/mit/task"}; print(t.find("t:Actions/t:Exec/t:Arguments",ns).text)',
      ],
      { input: text, encoding: 'utf8' },
    );
    expect(args.trim()).toBe('"/opt/oi app/bin/oi.mjs" schedule run report-ab12 --trigger time --data-dir "/home/p/My Data/100%/$HOME"');
  });

  it('quotes arguments as CommandLineToArgvW reads them back', () => {
    expect(windowsQuote('plain')).toBe('plain');
    expect(windowsQuote('C:\\Program Files\\oi\\')).toBe('"C:\\Program Files\\oi\\\\"');
    expect(windowsQuote('say "hi"')).toBe('"say \\"hi\\""');
    expect(windowsQuote('')).toBe('""');
  });
});
