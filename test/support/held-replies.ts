import type { Page } from 'playwright-core';

// The socket between a test's page and the real server, routed through the test, which holds back the
// server's answers to one kind of request while `holding` is on, until the test releases them: a slow
// server, made on purpose, with the server's answers themselves untouched. Routing must be in place
// before the page's socket opens: pass `beforeGoto` to useUiApp.

type Frame = { type?: string; id?: number; name?: string };
const frameOf = (message: string | Buffer): Frame => (typeof message === 'string' ? (JSON.parse(message) as Frame) : {});

export interface HeldReplies {
  /** While on, answers to the requests sent now are held. */
  holding: boolean;
  /** The held answers, each sent to the page when called. */
  replies: Array<() => void>;
  /** Stops holding and sends every held answer, in order. */
  release(): void;
  beforeGoto(page: Page): Promise<void>;
}

export function holdReplies(request: string, holding = false): HeldReplies {
  const ids = new Set<number>();
  const held: HeldReplies = {
    holding,
    replies: [],
    release() {
      held.holding = false;
      for (const reply of held.replies.splice(0)) reply();
    },
    beforeGoto: (page) =>
      page.routeWebSocket(/.*/, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((message) => {
          const frame = frameOf(message);
          if (held.holding && frame.type === 'request' && frame.name === request && frame.id !== undefined) ids.add(frame.id);
          server.send(message);
        });
        server.onMessage((message) => {
          const frame = frameOf(message);
          if (frame.type === 'response' && frame.id !== undefined && ids.has(frame.id)) held.replies.push(() => ws.send(message));
          else ws.send(message);
        });
      }),
  };
  return held;
}
