import { describe, expect, it } from 'vitest';
import { parseAddArgs } from '../../../src-main/cli/schedule/schedule-args';

// `oi schedule add`'s options, refused in the option's own spelling (not the schema's field names).

const base = ['--name', 'Report', '--prompt', 'p', '--workspace', '/tmp/reports'];
const refusal = (extra: string[]) => {
  try {
    parseAddArgs([...base, ...extra], 'systemd');
    return null;
  } catch (err) {
    return (err as Error).message.split('\n')[0];
  }
};

describe('oi schedule add’s options', () => {
  it('names the option that is wrong, and why', () => {
    expect(refusal(['--days', 'weekdays', '--at', '9:00'])).toBe('--at: a time is HH:MM on a 24-hour clock, 00:00 to 23:59');
    expect(refusal(['--every', '7m'])).toBe(
      '--every: every N minutes needs N to divide an hour: one of 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30',
    );
    expect(refusal(['--every', '5h'])).toBe('--every: every N hours needs N to divide a day: one of 1, 2, 3, 4, 6, 8, 12');
    expect(refusal(['--days', 'mon,funday', '--at', '09:00'])).toBe('--days: "fun" is not a day; give mon,tue,…,sun, weekdays or daily');
    expect(refusal(['--once', '2027-02-30T09:00'])).toBe('--once: that day does not exist in that month');
    expect(refusal(['--every', '15m', '--once', '2027-01-01T09:00'])).toBe(
      '--every and --once each say when the task runs; give one of them',
    );
    expect(refusal(['--manual', '--budget', '0'])).toBe('--budget: the budget must be more than $0');
    expect(refusal(['--manual', '--time-limit', 'soon'])).toBe('--time-limit: "soon" is not a number');
    expect(refusal([])).toBe('say when the task runs: --days with --at, --every, --once, --folder or --manual');
  });

  it('makes a task the OS scheduler runs, or the app when asked or when it is a trigger', () => {
    const weekly = parseAddArgs([...base, '--days', 'weekdays', '--at', '09:00', '--report', '--budget', '0.5'], 'systemd');
    expect(weekly).toMatchObject({
      name: 'Report',
      workspace: '/tmp/reports',
      when: { kind: 'weekly', days: ['mon', 'tue', 'wed', 'thu', 'fri'], time: '09:00' },
      policy: { sandbox: 'required', code: 'report', budgetUsd: 0.5, timeLimitMinutes: 30 },
      runner: 'systemd',
    });
    expect(weekly.id).toMatch(/^report-[0-9a-f]{4}$/);
    expect(parseAddArgs([...base, '--every', '2h', '--in-app'], 'systemd').runner).toBe('in-app');
    expect(parseAddArgs([...base, '--folder', '/tmp/inbox', '--no-sandbox'], 'systemd')).toMatchObject({
      when: { kind: 'folder', folder: '/tmp/inbox' },
      policy: { sandbox: 'off' },
      runner: 'in-app',
    });
  });
});
