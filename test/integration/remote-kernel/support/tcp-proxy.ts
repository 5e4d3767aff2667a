import { createServer, type Server, type Socket, connect } from 'node:net';
import { freePort } from '../../../support/jupyter-server';

// A TCP relay between the app and a Jupyter server, to cut the connection the way a network does
// (the server and its kernels keep running) and to bring it back on the same address.

export interface TcpProxy {
  url: string;
  /** How many connections the relay has accepted so far (a reconnect shows as one more). */
  accepted(): number;
  /** Drops every open connection; new ones still go through. */
  drop(): void;
  /** Drops everything and refuses new connections until resume(). */
  cut(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let accepted = 0;

  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const s = createServer((client) => {
        accepted++;
        const upstream = connect(targetPort, '127.0.0.1');
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.pipe(upstream);
        upstream.pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        server = s;
        resolve();
      });
    });

  const drop = (): void => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };

  const stopListening = (): Promise<void> =>
    new Promise((resolve) => {
      const s = server;
      server = null;
      if (!s) return resolve();
      s.close(() => resolve());
    });

  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    accepted: () => accepted,
    drop,
    async cut() {
      const closed = stopListening();
      drop();
      await closed;
    },
    resume: listen,
    async close() {
      const closed = stopListening();
      drop();
      await closed;
    },
  };
}
