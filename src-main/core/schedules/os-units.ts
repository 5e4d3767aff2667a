import type { Schedule, ScheduleWhen, Weekday } from '@contract';
import { WEEKDAYS } from '@contract';

// The files each operating system's scheduler reads for a task: a systemd user timer and its service,
// a launchd agent, a Task Scheduler task. Each starts the same command line — `oi schedule run <id>`
// with the data folder named — and carries nothing else of the task: the prompt, the folder and the
// policy are read from the schedule store when the run starts, so the store is the one place a task
// is defined (docs/schedules.md).

/** The program and its arguments that run a task headless: node (or the app run as node), then oi's. */
export interface OiCommand {
  program: string;
  args: string[];
  /** Variables the run needs (PATH as the person had it; ELECTRON_RUN_AS_NODE for the desktop app). */
  env: Record<string, string>;
}

export function runCommand(base: OiCommand, schedule: Schedule, dataDir: string): OiCommand {
  return { ...base, args: [...base.args, 'schedule', 'run', schedule.id, '--trigger', 'time', '--data-dir', dataDir] };
}

export const unitName = (id: string): string => `oi-schedule-${id}`;
export const launchdLabel = (id: string): string => `com.openinterpreter.oi.schedule.${id}`;
export const taskName = (id: string): string => `\\Open Interpreter\\${id}`;

// ---- systemd ---------------------------------------------------------------------------------------

const SYSTEMD_DAY: Record<Weekday, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };

/** The OnCalendar expression for a timed task (local time, as systemd reads it without a zone). */
export function onCalendar(when: ScheduleWhen): string {
  switch (when.kind) {
    case 'weekly': {
      const days = WEEKDAYS.filter((d) => when.days.includes(d)).map((d) => SYSTEMD_DAY[d]);
      return `${days.join(',')} *-*-* ${when.time}:00`;
    }
    case 'every':
      return when.unit === 'minutes' ? `*-*-* *:00/${when.n}:00` : `*-*-* 00/${when.n}:00:00`;
    case 'once':
      return `${when.at.replace('T', ' ')}:00`;
    default:
      throw new Error(`a ${when.kind} task has no time for an OS scheduler`);
  }
}

/** A word for ExecStart=/Environment=: quoted, with systemd's specifiers (%) and variables ($) escaped. */
function systemdQuote(word: string, dollars: boolean): string {
  let s = word.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%');
  if (dollars) s = s.replace(/\$/g, '$$$$');
  return `"${s}"`;
}

/** Characters no unit line may hold: a newline would start a directive of its own. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  return text.replace(/[\r\n\t]+/g, ' ').replace(/[\x00-\x1f\x7f]/g, '');
}

export function systemdService(schedule: Schedule, command: OiCommand): string {
  const env = Object.entries(command.env).map(([k, v]) => `Environment=${systemdQuote(`${k}=${v}`, false)}\n`);
  const exec = [command.program, ...command.args].map((w) => systemdQuote(w, true)).join(' ');
  return (
    `[Unit]\nDescription=${systemdQuote(`Open Interpreter scheduled task: ${oneLine(schedule.name)}`, false)}\n\n` +
    `[Service]\nType=oneshot\n${env.join('')}ExecStart=${exec}\n`
  );
}

export function systemdTimer(schedule: Schedule): string {
  return (
    `[Unit]\nDescription=${systemdQuote(`Open Interpreter scheduled task: ${oneLine(schedule.name)}`, false)}\n\n` +
    // Persistent: a time missed while the machine was off or asleep runs once when it is back.
    `[Timer]\nOnCalendar=${onCalendar(schedule.when)}\nPersistent=true\nUnit=${unitName(schedule.id)}.service\n\n` +
    `[Install]\nWantedBy=timers.target\n`
  );
}

// ---- launchd ---------------------------------------------------------------------------------------

const xml = (text: string): string =>
  oneLine(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

const LAUNCHD_DAY: Record<Weekday, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** StartCalendarInterval's dictionaries: launchd fires when every key given matches. */
export function calendarIntervals(when: ScheduleWhen): Array<Record<string, number>> {
  switch (when.kind) {
    case 'weekly': {
      const [h, m] = when.time.split(':').map(Number) as [number, number];
      return WEEKDAYS.filter((d) => when.days.includes(d)).map((d) => ({ Weekday: LAUNCHD_DAY[d], Hour: h, Minute: m }));
    }
    case 'every': {
      const count = when.unit === 'minutes' ? 60 / when.n : 24 / when.n;
      return Array.from({ length: count }, (_, i): Record<string, number> =>
        when.unit === 'minutes' ? { Minute: i * when.n } : { Hour: i * when.n, Minute: 0 },
      );
    }
    case 'once': {
      // launchd has no year: the run refuses a one-off task that already ran, and oi removes the agent.
      const [date, time] = when.at.split('T') as [string, string];
      const [, mo, d] = date.split('-').map(Number) as [number, number, number];
      const [h, m] = time.split(':').map(Number) as [number, number];
      return [{ Month: mo, Day: d, Hour: h, Minute: m }];
    }
    default:
      throw new Error(`a ${when.kind} task has no time for an OS scheduler`);
  }
}

export function launchdPlist(schedule: Schedule, command: OiCommand): string {
  const strings = (items: string[], pad: string) => items.map((s) => `${pad}<string>${xml(s)}</string>\n`).join('');
  const env = Object.entries(command.env)
    .map(([k, v]) => `\t\t<key>${xml(k)}</key>\n\t\t<string>${xml(v)}</string>\n`)
    .join('');
  const intervals = calendarIntervals(schedule.when)
    .map(
      (entry) =>
        `\t\t<dict>\n${Object.entries(entry)
          .map(([k, v]) => `\t\t\t<key>${k}</key>\n\t\t\t<integer>${v}</integer>\n`)
          .join('')}\t\t</dict>\n`,
    )
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n` +
    `<plist version="1.0">\n<dict>\n` +
    `\t<key>Label</key>\n\t<string>${launchdLabel(schedule.id)}</string>\n` +
    `\t<key>ProgramArguments</key>\n\t<array>\n${strings([command.program, ...command.args], '\t\t')}\t</array>\n` +
    (env ? `\t<key>EnvironmentVariables</key>\n\t<dict>\n${env}\t</dict>\n` : '') +
    `\t<key>StartCalendarInterval</key>\n\t<array>\n${intervals}\t</array>\n` +
    `</dict>\n</plist>\n`
  );
}

// ---- Windows Task Scheduler ------------------------------------------------------------------------

const WINDOWS_DAY: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** One argument as CommandLineToArgvW reads it back: quoted, backslashes before a quote doubled. */
export function windowsQuote(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
}

/** The task's trigger; StartBoundary without a zone is local time, as the other schedulers count. */
function windowsTrigger(when: ScheduleWhen): string {
  switch (when.kind) {
    case 'weekly': {
      const days = WEEKDAYS.filter((d) => when.days.includes(d))
        .map((d) => `<${WINDOWS_DAY[d]} />`)
        .join('');
      return (
        `    <CalendarTrigger>\n      <StartBoundary>2026-01-01T${when.time}:00</StartBoundary>\n` +
        `      <ScheduleByWeek>\n        <DaysOfWeek>${days}</DaysOfWeek>\n        <WeeksInterval>1</WeeksInterval>\n      </ScheduleByWeek>\n    </CalendarTrigger>\n`
      );
    }
    case 'every': {
      const interval = when.unit === 'minutes' ? `PT${when.n}M` : `PT${when.n}H`;
      return (
        `    <CalendarTrigger>\n      <StartBoundary>2026-01-01T00:00:00</StartBoundary>\n` +
        `      <Repetition>\n        <Interval>${interval}</Interval>\n        <Duration>P1D</Duration>\n      </Repetition>\n` +
        `      <ScheduleByDay>\n        <DaysInterval>1</DaysInterval>\n      </ScheduleByDay>\n    </CalendarTrigger>\n`
      );
    }
    case 'once':
      return `    <TimeTrigger>\n      <StartBoundary>${when.at}:00</StartBoundary>\n    </TimeTrigger>\n`;
    default:
      throw new Error(`a ${when.kind} task has no time for an OS scheduler`);
  }
}

/** The task's XML (written UTF-16 for schtasks /XML). Windows tasks get the user's environment: `env` is not used. */
export function taskSchedulerXml(schedule: Schedule, command: OiCommand): string {
  return (
    `<?xml version="1.0" encoding="UTF-16"?>\n` +
    `<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">\n` +
    `  <RegistrationInfo>\n    <Description>${xml(`Open Interpreter scheduled task: ${schedule.name}`)}</Description>\n` +
    `    <URI>${xml(taskName(schedule.id))}</URI>\n  </RegistrationInfo>\n` +
    `  <Triggers>\n${windowsTrigger(schedule.when)}  </Triggers>\n` +
    `  <Principals>\n    <Principal id="Author">\n      <LogonType>InteractiveToken</LogonType>\n      <RunLevel>LeastPrivilege</RunLevel>\n    </Principal>\n  </Principals>\n` +
    // StartWhenAvailable: a start missed while the machine was off or asleep runs as soon as it can.
    `  <Settings>\n    <StartWhenAvailable>true</StartWhenAvailable>\n    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>\n` +
    `    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>\n    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>\n` +
    `    <ExecutionTimeLimit>PT${Math.ceil(schedule.policy.timeLimitMinutes) + 5}M</ExecutionTimeLimit>\n    <Enabled>true</Enabled>\n  </Settings>\n` +
    `  <Actions Context="Author">\n    <Exec>\n      <Command>${xml(windowsQuote(command.program))}</Command>\n` +
    `      <Arguments>${xml(command.args.map(windowsQuote).join(' '))}</Arguments>\n    </Exec>\n  </Actions>\n</Task>\n`
  );
}
