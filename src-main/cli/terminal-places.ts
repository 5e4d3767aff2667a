/**
 * The app's messages name where a person fixes something in the desktop app ("Settings → Model").
 * In the terminal that place is either an `oi` option, or the desktop app's Settings, which share the
 * data folder: said as such, so that a terminal user is not sent to a screen oi does not have
 * (issue 25, item 8). Applied where text leaves oi for a person: errors, notices, the result line.
 */
const PLACES: ReadonlyArray<[RegExp, string]> = [
  // Model and endpoint: options exist for both.
  [/\(Settings → Model\)/g, "(--model, --base-url; or the desktop app's Settings → Model)"],
  [/in Settings → Model\b/g, "with --model / --base-url (or in the desktop app's Settings → Model)"],
  [/\(Settings → Provider, or --base-url\)/g, '(--provider and --base-url)'],
  // Keys: oi asks for a missing one at a terminal and keeps it in the keychain; the variables work too.
  [/in Settings → API keys/g, "when oi asks for it (it is kept in the OS keychain), or in the desktop app's Settings → API keys"],
];

/** Whatever still says "Settings →" names the desktop app's screen, which a terminal user may not know. */
const OTHER = /(?<!app's )\bSettings → /g;

export function forTerminal(text: string): string {
  if (!text.includes('Settings →')) return text;
  let out = text;
  for (const [from, to] of PLACES) out = out.replace(from, to);
  return out.replace(OTHER, "the desktop app's Settings → ");
}
