/** Sent on the window by Settings → Profiles when it changed the list; the top bar's Profile menu reads it again. */
export const PROFILES_CHANGED = 'oi-profiles-changed';
