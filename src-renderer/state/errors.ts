/** A thrown value as one line for the user. Bridge errors already say which request and field. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
