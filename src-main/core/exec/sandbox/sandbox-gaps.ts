import type { SandboxSettings } from '@contract';
import { describeSandbox } from './describe-sandbox';
import type { SandboxSupport } from './sandbox-support';

// The other half of describe-sandbox.ts: what the code can still reach, said plainly wherever the user
// decides to let code run without asking (the Auto-run and "Always run here" confirmations, the
// sandbox chip, the CLI's -y warning). Each line restates a limit docs/sandbox.md explains under
// "What the sandbox does not do", and never claims a protection that describeSandbox does not list.

/** What the code can still read, change or reach, as short phrases; empty when nothing runs at all. */
export function sandboxGaps(
  settings: SandboxSettings | undefined,
  support: SandboxSupport,
  platform: NodeJS.Platform = process.platform,
  /** Whether the app keeps keys in the OS keychain (false: in memory, no keychain here). */
  keychain = true,
): string[] {
  if (!settings?.enabled) {
    return [
      'your files: it can read, change and delete anything your user can',
      'the network',
      // The Secret Service hands stored keys to any process of the user over the session bus.
      ...(platform === 'linux' && keychain ? ['your keychain: it can read the stored API keys over the session bus'] : []),
      'your other programs: it can see them and signal them',
    ];
  }
  if (!support.available) return [];
  const network = settings.allowNetwork ? ['the network: allowed and unfiltered, including services on this machine'] : [];
  const common = [
    'the workspace: it can change or delete anything in it',
    ...network,
    'files outside the hidden home folders can be read (/etc, /usr, other disks)',
    'environment variables other than the app’s keys are visible',
  ];
  return support.tool === 'sandbox-exec'
    ? [...common, 'your other programs: it can see them and signal yours', 'the kernel: this is not a virtual machine']
    : [...common, 'the kernel: this is not a virtual machine'];
}

/** What holds, one phrase each: describeSandbox's sentence after the tool's name, split at its "; ". */
export function sandboxProtections(settings: SandboxSettings | undefined, support: SandboxSupport): string[] {
  const sentence = describeSandbox(settings, support);
  if (!sentence || !support.available) return [];
  return sentence.slice(sentence.indexOf(': ') + 2).split('; ');
}

/**
 * One sentence naming the sandbox state, for a confirmation before code runs without asking, e.g.
 * "No sandbox: code will run as you, with access to your files, the network and your keychain (it can
 * read the stored API keys over the session bus)."
 * What a sandbox leaves open is sandboxGaps', listed beside it.
 */
export function autoRunWarning(
  settings: SandboxSettings | undefined,
  support: SandboxSupport,
  platform: NodeJS.Platform = process.platform,
  keychain = true,
): string {
  if (!settings?.enabled) {
    // Any process of the user may ask the Secret Service for an unlocked keychain's entries. Without a
    // keychain (keys kept in the app's memory) there is none to warn of (issue 25 item 9).
    const reach =
      platform === 'linux' && keychain
        ? 'your files, the network and your keychain (it can read the stored API keys over the session bus)'
        : 'your files and the network';
    return `No sandbox: code will run as you, with access to ${reach}.`;
  }
  if (!support.available) return `The sandbox is on but unavailable here (${support.reason}), so nothing will run until it is turned off.`;
  return `Sandbox on — ${describeSandbox(settings, support) ?? support.tool}.`;
}
