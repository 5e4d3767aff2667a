import { attentionFor, errorMessage, type NotifyKind, type ScheduleRunRecord } from '@contract';
import { conversationLink } from '@contract/conversation-link';
import { launchAppProgram, runAppProgram, systemProgram } from '../programs/app-programs';
import { scheduleServiceHolder } from './schedule-service';

// A scheduled run's end when nothing of ours is open to hear it (docs/schedules.md#notifications).
// While the desktop app or browser mode is open, the one holding schedule-service.lock watches the
// runs' records and notifies through its own notifier (run-watch.ts), with a click that opens the
// conversation. With neither open — the OS scheduler started `oi schedule run` at 9:00 with the app
// closed — the run itself tells the person through the desktop's notification service: on Linux
// `notify-send` (libnotify, which speaks the freedesktop notification protocol to whatever daemon the
// desktop runs: GNOME Shell, KDE, dunst, mako), on macOS `osascript`'s `display notification`. Both are
// the system's own programs, found in the system folders only (app-programs.ts), so nothing a
// workspace puts on PATH is run. Windows has no such program; its runs are not notified (noted in
// the docs). On Linux a click opens the run's conversation (WAIT_FOR_CLICK below). The text is the one the app's notifiers show (attentionFor), filtered by Settings'
// *Notify me when* as theirs is.

export type OsNotifyOutcome =
  /** Handed to the desktop's notification service (Linux: to notify-send, which waits for a click). */
  | { sent: true }
  /** Not sent, and why (for the run's log). */
  | { sent: false; why: string };

export interface OsNotifyOptions {
  dataDir: string;
  record: ScheduleRunRecord;
  /** The task's name, as the notification says it. */
  name: string;
  notifyOn: readonly NotifyKind[];
  /** The run's environment: the session bus and display the notification service is reached through. */
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

const APP_NAME = 'Open Interpreter';

export async function notifyRunEndedByOs(opts: OsNotifyOptions): Promise<OsNotifyOutcome> {
  const { record } = opts;
  const attention = attentionFor({
    name: 'schedule.run-ended',
    payload: {
      conversationId: record.conversationId,
      scheduleId: record.scheduleId,
      name: opts.name,
      result: record.result,
      costUsd: record.costUsd,
    },
  });
  if (!attention) return { sent: false, why: 'the run did not start, so there is no conversation to open' };
  if (!opts.notifyOn.includes(attention.kind)) return { sent: false, why: `Settings' "Notify me when" leaves out ${attention.kind}` };
  const holder = await scheduleServiceHolder(opts.dataDir);
  // Never twice: the open app's notifier says it (and can open the conversation when clicked).
  if (holder) return { sent: false, why: `the app (pid ${holder.pid}) is open and notifies it` };
  const platform = opts.platform ?? process.platform;
  if (platform === 'linux') return linuxNotify(attention.text, attention.conversationId, opts.env);
  if (platform === 'darwin') return macNotify(attention.text);
  return { sent: false, why: `no notification service is used on ${platform}` };
}

/** What the notification and the link it opens need of the desktop session, and nothing else (no keys). */
const DESKTOP_ENV = [
  'HOME',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XDG_RUNTIME_DIR',
  'XDG_CURRENT_DESKTOP',
  'XDG_DATA_HOME',
  'XDG_DATA_DIRS',
  'XDG_CONFIG_HOME',
  'XDG_CONFIG_DIRS',
] as const;

/**
 * Clicked, the notification opens the run's conversation: the OS hands the app its link
 * (contract/conversation-link.ts), starting it. A small detached shell waits for the click, so the run
 * itself ends now: `notify-send --wait` prints the action taken, and on "default" `xdg-open` gives the
 * link to whatever the desktop registered for it (the packaged app's desktop file). Its arguments are
 * passed as arguments, never spliced into the script.
 */
const WAIT_FOR_CLICK =
  'choice=$(notify-send --app-name="$1" --wait --action=default=Open -- "$1" "$2") || exit 1; ' +
  '[ "$choice" = default ] && exec xdg-open "$3"';

async function linuxNotify(text: string, conversationId: string, env: NodeJS.ProcessEnv): Promise<OsNotifyOutcome> {
  // A run with no session bus (a cron job, a server without a desktop) has nobody to show it to; a
  // systemd user timer's runs have the user manager's bus.
  const bus = env.DBUS_SESSION_BUS_ADDRESS;
  if (!bus) return { sent: false, why: 'no desktop session bus (DBUS_SESSION_BUS_ADDRESS is not set)' };
  if (!systemProgram('notify-send')) return { sent: false, why: 'notify-send is not installed (Debian and Ubuntu: libnotify-bin)' };
  const pass: NodeJS.ProcessEnv = { LANG: 'C.UTF-8', DBUS_SESSION_BUS_ADDRESS: bus };
  for (const name of DESKTOP_ENV) if (env[name]) pass[name] = env[name];
  try {
    await launchAppProgram('sh', ['-c', WAIT_FOR_CLICK, 'oi-notify', APP_NAME, text, conversationLink(conversationId)], pass);
    return { sent: true };
  } catch (err) {
    return { sent: false, why: `the notification could not be sent: ${errorMessage(err)}` };
  }
}

async function macNotify(text: string): Promise<OsNotifyOutcome> {
  const quoted = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const script = `display notification ${quoted(text)} with title ${quoted(APP_NAME)}`;
  const result = await runAppProgram('osascript', ['-e', script], { timeoutMs: 10_000 });
  return result.ok ? { sent: true } : { sent: false, why: `osascript failed: ${result.stderr.trim() || 'no reason given'}` };
}
