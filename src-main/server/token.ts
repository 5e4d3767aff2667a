import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh secret for each launch of browser mode. */
export function newLaunchToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison; hashing first makes lengths equal so the length is not leaked either. */
export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string' || given.length === 0 || given.length > 1024) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

/**
 * The cookie that carries the token, one name per port. Browsers do not scope cookies by port, so every
 * server on 127.0.0.1 shares one cookie jar: with a fixed name, a second browser-mode instance (or any
 * page on another port) would replace ours.
 */
export function tokenCookieName(port: number): string {
  return `oi_token_${port}`;
}

/**
 * Every value the Cookie header gives `name`, decoded; a value that is not valid percent-encoding is
 * skipped, never thrown. A browser sends several cookies of one name when they differ in path, so a
 * page on another port can add `name=<junk>; path=/ws` ahead of ours: the caller must accept the
 * request if ANY of them is the token, or that page could lock the user out.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      values.push(decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // A malformed value (`%E0%A4%A`) is someone else's junk, not ours.
    }
    // Bounded: a header stuffed with thousands of copies costs one hash each, no more than 64 of them.
    if (values.length >= 64) break;
  }
  return values;
}
