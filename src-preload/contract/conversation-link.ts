// A link that opens a conversation in the desktop app: `open-interpreter://conversation/<id>`. The
// packaged app registers the scheme with the OS (electron-builder.yml `protocols`), so that a scheduled
// run's own notification — sent with no app running (docs/schedules.md#notifications) — can open its
// conversation when clicked. Any program (a web page too) can hand the OS such a link, so it carries
// nothing but an id, and the app only shows a conversation that exists: nothing is run or changed.

export const CONVERSATION_LINK_SCHEME = 'open-interpreter';

/** A conversation id's form (model.ts Id): safe in a URL's path as it is. */
const ID = /^[A-Za-z0-9_-]{1,128}$/;

export function conversationLink(conversationId: string): string {
  if (!ID.test(conversationId)) throw new Error(`"${conversationId}" is not a conversation id`);
  return `${CONVERSATION_LINK_SCHEME}://conversation/${conversationId}`;
}

/** The conversation a link names; null for anything that is not exactly such a link. */
export function conversationIdInLink(text: string): string | null {
  const prefix = `${CONVERSATION_LINK_SCHEME}://conversation/`;
  if (!text.startsWith(prefix)) return null;
  // An OS may add a trailing slash; nothing else (no query, no fragment, no further path).
  const id = text.slice(prefix.length).replace(/\/$/, '');
  return ID.test(id) ? id : null;
}
