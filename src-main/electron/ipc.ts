import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { requestNames } from '@contract';
import type { Dispatcher } from '../core/bridge/dispatch';
import type { EventBus } from '../core/bridge/event-bus';
import { eventForPage, resultForPage } from '../core/bridge/page-cells';
import { EVENT_CHANNEL, requestChannel } from '../../src-preload/ipc-channels';
import { isAppUrl } from './app-origin';

/**
 * Binds the handler table to IPC: one channel per contract request, answered only for our own
 * window's top frame on our own origin. Every refusal says why.
 */
export function bindIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  dispatch: Dispatcher,
  events: EventBus,
  ourWindow: () => WebContents | null,
): () => void {
  for (const name of requestNames) {
    ipcMain.handle(requestChannel(name), async (event: IpcMainInvokeEvent, input: unknown) => {
      const refusal = senderRefusal(event, ourWindow());
      if (refusal) {
        console.warn(`refused IPC ${name}: ${refusal}`);
        return { ok: false, error: { code: 'unauthorized', message: refusal } };
      }
      const reply = await dispatch(name, input, { transport: 'ipc' });
      // The page is sent only the rows of a cell's text it draws (bridge/page-cells.ts).
      return reply.ok ? { ok: true, result: resultForPage(reply.result) } : reply;
    });
  }
  const unsubscribe = events.subscribe((event) => {
    const wc = ourWindow();
    if (wc && !wc.isDestroyed()) wc.send(EVENT_CHANNEL, eventForPage(event));
  });
  return () => {
    unsubscribe();
    for (const name of requestNames) ipcMain.removeHandler(requestChannel(name));
  };
}

function senderRefusal(event: IpcMainInvokeEvent, ours: WebContents | null): string | null {
  if (!ours || event.sender.id !== ours.id) return 'the request did not come from the app window';
  const frame = event.senderFrame;
  if (!frame || frame !== ours.mainFrame) return 'the request came from a sub-frame';
  if (!isAppUrl(frame.url)) return `the request came from an unexpected page (${frame.url})`;
  return null;
}
