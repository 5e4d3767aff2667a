/** A size for the person: "1.5 MB", "120 MB". */
export function formatMb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}
