/**
 * A stable id for a start-up notice, from its text, so a notice dismissed for good stays dismissed
 * (the same situation gives the same sentence) without main and the window sharing a list of ids.
 */
export function noticeId(text: string): string {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 33) ^ text.charCodeAt(i)) >>> 0;
  return `n${h.toString(36)}`;
}
