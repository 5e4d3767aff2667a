import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startXvfb, type Xvfb } from './xvfb';

// A desktop's notification service for tests: a private D-Bus session bus and Debian's dunst (a real
// freedesktop notification daemon) drawing on a private Xvfb. What a program sends it is read back
// with dunstctl, as the person would see it.

export interface ShownNotification {
  appname: string;
  summary: string;
  body: string;
}

export interface NotificationDaemon {
  /** The environment a program needs to reach it: the bus and the display. */
  env: { DBUS_SESSION_BUS_ADDRESS: string; DISPLAY: string };
  /** Every notification received since the start (the ones on screen are closed first). */
  shown(): Promise<ShownNotification[]>;
  /** Clicks the newest notification on screen, as the person would (its default action), once one is. */
  click(): Promise<void>;
  close(): Promise<void>;
}

export async function startNotificationDaemon(): Promise<NotificationDaemon> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oi-notify-'));
  const xvfb: Xvfb = await startXvfb(800, 600);
  const children: ChildProcess[] = [];
  try {
    // A bus of its own with no service activation: asking before dunst is up must not start another
    // daemon from /usr/share/dbus-1/services (which would have no display).
    writeFileSync(
      path.join(dir, 'bus.conf'),
      `<busconfig><type>session</type><listen>unix:path=${path.join(dir, 'bus')}</listen><auth>EXTERNAL</auth>` +
        '<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>',
    );
    const bus = spawn('dbus-daemon', [`--config-file=${path.join(dir, 'bus.conf')}`, '--nofork', '--print-address=1'], {
      // Its stderr only says a root in a container may not raise its file limit.
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    children.push(bus);
    const [address] = (await once(createInterface({ input: bus.stdout }), 'line')) as [string];
    const env = { DBUS_SESSION_BUS_ADDRESS: address.trim(), DISPLAY: xvfb.display };
    writeFileSync(path.join(dir, 'dunstrc'), '[global]\n');
    const dunst = spawn('dunst', ['-config', path.join(dir, 'dunstrc')], {
      env: { PATH: '/usr/bin:/bin', HOME: dir, ...env },
      stdio: 'ignore',
    });
    children.push(dunst);
    const ctl = (args: string[]) =>
      new Promise<string>((resolve, reject) =>
        execFile('dunstctl', args, { env: { PATH: '/usr/bin:/bin', ...env } }, (err, out) =>
          err ? reject(new Error(`dunstctl ${args.join(' ')}: ${err.message}`)) : resolve(out),
        ),
      );
    // Ready once it owns the notification name on the bus (dunstctl asks it over D-Bus).
    for (let tries = 0; ; tries++) {
      if (dunst.exitCode !== null) throw new Error(`dunst exited with ${dunst.exitCode}`);
      if (
        await ctl(['is-paused']).then(
          () => true,
          () => false,
        )
      )
        break;
      if (tries === 200) throw new Error('dunst did not take the notification service on the test bus');
      await new Promise((r) => setTimeout(r, 50));
    }
    const field = (entry: Record<string, { data: unknown }>, name: string) => {
      const value = entry[name]?.data;
      return typeof value === 'string' ? value : '';
    };
    return {
      env,
      async shown() {
        // History holds the closed ones: close what is on screen first.
        await ctl(['close-all']);
        const history = JSON.parse(await ctl(['history'])) as { data: Array<Array<Record<string, { data: unknown }>>> };
        return (history.data[0] ?? []).map((e) => ({ appname: field(e, 'appname'), summary: field(e, 'summary'), body: field(e, 'body') }));
      },
      async click() {
        // A program that hands its notification on (notify-send started detached) may not have yet.
        for (let tries = 0; Number((await ctl(['count', 'displayed'])).trim()) === 0; tries++) {
          if (tries === 600) throw new Error('no notification came to be clicked');
          await new Promise((r) => setTimeout(r, 50));
        }
        await ctl(['action', '0']);
      },
      async close() {
        for (const child of children) child.kill();
        await Promise.all(children.filter((c) => c.exitCode === null && c.signalCode === null).map((c) => once(c, 'exit')));
        await xvfb.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    for (const child of children) child.kill();
    await xvfb.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
