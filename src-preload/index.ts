import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { eventNames, requestNames, type AnyEvent } from './contract';
import { EVENT_CHANNEL, requestChannel } from './ipc-channels';

// The preload exposes exactly the contract's names: one function per request and a typed `on` for
// events. There is no generic invoke(channel) and no ipcRenderer on window.

const api: Record<string, unknown> = {};
for (const name of requestNames) {
  api[name] = async (input: unknown) => {
    const reply = (await ipcRenderer.invoke(requestChannel(name), input)) as
      { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };
    if (reply.ok) return reply.result;
    const err = new Error(reply.error.message);
    (err as Error & { code?: string }).code = reply.error.code;
    throw err;
  };
}

const known = new Set<string>(eventNames);
const listeners = new Map<string, Set<(payload: unknown) => void>>();
ipcRenderer.on(EVENT_CHANNEL, (_e, event: AnyEvent) => {
  for (const l of listeners.get(event.name) ?? []) l(event.payload);
});
api.on = (name: string, listener: (payload: unknown) => void) => {
  if (!known.has(name)) throw new Error(`unknown event ${name}`);
  const set = listeners.get(name) ?? new Set();
  listeners.set(name, set);
  set.add(listener);
  return () => set.delete(listener);
};

contextBridge.exposeInMainWorld('oi', api);

// A dropped file's real path (Electron no longer puts it on File). Main copies the file into the
// workspace itself and accepts the path only over IPC, confined by its own checks.
contextBridge.exposeInMainWorld('oiFiles', { pathForFile: (file: File) => webUtils.getPathForFile(file) });
