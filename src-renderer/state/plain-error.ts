// The one place the renderer reads a thrown value's raw message (eslint.config.js): everything a
// person is shown goes through the words below.
// eslint-disable-next-line no-restricted-imports
import { errorMessage } from '@contract/error-message';

// What a failed request says to a person. Main's replies name the request ("cell.approve: …") and
// the ids they were given, which help a log reader and mean nothing on screen; some failures are a
// repeated action (a second click on Run after the first was taken), which is no error at all.

/** A request name as dispatch puts it before a handler's message: "cell.approve: ", "workspace.preview: ". */
const REQUEST_PREFIX = /^[a-z][a-zA-Z]*(?:\.[a-zA-Z]+)+: /;

/** Failures that mean the action was already done (or undone) by an earlier click: nothing to show. */
const ALREADY_HANDLED = [/^cell \S+ is not waiting for approval$/, /^cell \S+ is not running$/];

/** Messages whose words name an internal id; each becomes the sentence a person can act on. */
const PLAIN: Array<[RegExp, string]> = [
  [/^no conversation with id \S+$/, 'That conversation no longer exists (it was deleted, maybe in another window).'],
  [/^no checkpoints for cell \S+ in this conversation$/, 'This cell has no saved files to rewind to.'],
  [/^there is no checkpoint before cell \S+ (\(.*\))$/, 'There is no saved state from before this cell $1.'],
  [/^not a conversation id: .*$/, 'That conversation could not be found.'],
];

/** The banner text for a failure, or null when the failure was a repeated action and is ignored. */
export function plainError(err: unknown): string | null {
  const message = errorMessage(err).replace(REQUEST_PREFIX, '');
  if (ALREADY_HANDLED.some((pattern) => pattern.test(message))) return null;
  for (const [pattern, sentence] of PLAIN) if (pattern.test(message)) return message.replace(pattern, sentence);
  return message;
}

/**
 * The words for a failure shown in place (a status line, a chip, a field's note, a tooltip): as
 * plainError, never null (a repeated action's refusal, rare there, reads as done).
 */
export function plainMessage(err: unknown): string {
  return plainError(err) ?? 'That was already done.';
}
