/** macOS uses ⌘ where other systems use Ctrl. */
export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** The platform's command modifier is held (⌘ on macOS, Ctrl elsewhere). */
export function hasCommandKey(e: { metaKey: boolean; ctrlKey: boolean }): boolean {
  return isMac() ? e.metaKey : e.ctrlKey;
}
