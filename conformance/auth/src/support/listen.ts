import type { Server } from 'node:http';
import type { Express } from 'express';

/** A server listening on 127.0.0.1 and the way to stop it. */
export interface Listening {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Starts `app` on 127.0.0.1 on a port the kernel picks; `close()` ends open connections too.
 *
 * @example
 * const { origin, close } = await listen(express());
 * await close();
 */
export async function listen(app: Express): Promise<Listening> {
  const server = await new Promise<Server>((resolve, reject) => {
    const started = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(started)));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
