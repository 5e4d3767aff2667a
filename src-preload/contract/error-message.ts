/**
 * A thrown value as the one line a person reads: an Error's message, anything else as text. Shared by
 * both sides of the bridge; bridge errors already say which request and field.
 */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
