import { readlinkSync } from 'node:fs';

/**
 * The local time zone's IANA name (Europe/Berlin) for the model's prompt. Where the OS says it plainly —
 * /etc/localtime a link into a zoneinfo folder (Linux, macOS) and no TZ variable overriding it — that
 * link is read: asking Intl loads ICU's time-zone data, a cost comparable to Node's own start on a busy
 * machine, paid before every `oi -m`'s first model request (bench/startup.bench.ts). Elsewhere, Intl.
 */
export function localTimeZone(env: NodeJS.ProcessEnv = process.env): string {
  if (!env.TZ && process.platform !== 'win32') {
    try {
      const zone = /\/zoneinfo\/(.+)$/.exec(readlinkSync('/etc/localtime'))?.[1];
      if (zone) return zone;
    } catch {
      // Not a link (a copied file, or none): ask Intl.
    }
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The local weekday's English name, without a locale lookup. */
export function weekdayName(date: Date): string {
  return WEEKDAYS[date.getDay()] ?? '';
}
