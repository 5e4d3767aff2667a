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

export const TOKEN_COOKIE = 'oi_token';

export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}
