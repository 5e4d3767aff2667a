import type { App } from 'electron';
import { conversationIdInLink } from '@contract/conversation-link';
import { errorMessage } from '@contract';
import type { Dispatcher } from '../core/bridge/dispatch';

// `open-interpreter://conversation/<id>` links the OS hands the app (contract/conversation-link.ts): a
// scheduled run's own notification, clicked after the run ended with no app open, has the OS start the
// app with the link (Linux, Windows: a command-line argument, of the first launch or of a second one the
// single-instance lock turns into `second-instance`; macOS: `open-url`, which may fire before the app is
// ready). The app shows that conversation if it exists. Anything can hand the OS such a link, a web
// page included, so this only ever shows: a link naming no conversation of this app is ignored.

/** The conversation ids the links among a launch's arguments name. */
export function conversationLinksIn(args: readonly string[]): string[] {
  return args.map(conversationIdInLink).filter((id): id is string => id !== null);
}

export interface ConversationLinkTarget {
  dispatch: Dispatcher;
  /** Brings the window forward (opening it if closed) on the conversation. */
  show(conversationId: string): void;
}

export class ConversationLinks {
  private target: ConversationLinkTarget | null = null;
  private readonly waiting: string[] = [];

  /** Shows the conversation now when the app is started, else once it is (start). */
  async open(ids: readonly string[]): Promise<void> {
    if (!this.target) {
      this.waiting.push(...ids);
      return;
    }
    // The last one named is the one the person clicked last: it ends in front.
    for (const id of ids) await showIfKnown(this.target, id);
  }

  start(target: ConversationLinkTarget): Promise<void> {
    this.target = target;
    return this.open(this.waiting.splice(0));
  }
}

async function showIfKnown(target: ConversationLinkTarget, conversationId: string): Promise<void> {
  const reply = await target.dispatch('conversation.get', { conversationId }, { transport: 'ipc' });
  if (reply.ok) target.show(conversationId);
}

/** Wires Electron's `open-url` (macOS; registered before `ready`) and `second-instance` to the links. */
export function bindConversationLinks(
  app: Pick<App, 'on'>,
  links: ConversationLinks,
  report: (err: unknown) => void = (err) => console.warn(`opening a conversation link failed: ${errorMessage(err)}`),
): void {
  app.on('open-url', (event, url) => {
    event.preventDefault();
    links.open(conversationLinksIn([url])).catch(report);
  });
  app.on('second-instance', (_event, argv) => {
    links.open(conversationLinksIn(argv.slice(1))).catch(report);
  });
}
