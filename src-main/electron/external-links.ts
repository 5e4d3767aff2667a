// Which links leave the app for the OS: web pages and mail only. Anything else could run something
// locally (file:, smb: and other network shares, javascript:, custom schemes registered by other apps).
const EXTERNAL_SCHEMES = new Set(['https:', 'http:', 'mailto:']);

export function externalUrlAllowed(url: string): boolean {
  try {
    return EXTERNAL_SCHEMES.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** Hands `url` to the OS (shell.openExternal) only when its scheme is allowed; says whether it did. */
export function openIfAllowed(url: string, openExternal: (url: string) => unknown): boolean {
  if (!externalUrlAllowed(url)) return false;
  void Promise.resolve(openExternal(url)).catch((err: unknown) =>
    console.warn(`could not open ${new URL(url).protocol} link: ${(err as Error)?.message ?? String(err)}`),
  );
  return true;
}
