import { describe, expect, it } from 'vitest';
import { localTimeZone, weekdayName } from '../../../src-main/core/agent/time-zone';

/** Minutes east of UTC of `zone` at `date`, as Intl computes it. */
function offsetIn(zone: string, date: Date): number {
  const part =
    new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(date)
      .find((p) => p.type === 'timeZoneName')?.value ?? '';
  const m = /GMT([+-])(\d\d):(\d\d)/.exec(part);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

describe('the local time zone and weekday for the prompt', () => {
  it('names a zone Intl knows, with the local offset now and half a year from now', () => {
    const zone = localTimeZone();
    for (const date of [new Date(), new Date(Date.now() + 182 * 24 * 3600_000)]) {
      expect(offsetIn(zone, date)).toBe(0 - date.getTimezoneOffset());
    }
  });

  it('gives the weekday Intl gives, for every day of a week', () => {
    for (let day = 0; day < 7; day++) {
      const date = new Date(2026, 2, 1 + day, 12);
      expect(weekdayName(date)).toBe(date.toLocaleDateString('en-US', { weekday: 'long' }));
    }
  });
});
