import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChaosServer } from './chaos-contract.ts';
import { ChaosInputError, parseFaults } from './faults.ts';
import { parsePoolServerOptions } from './pool-options.ts';
import { PoolFullError, type ServerPool } from './server-pool.ts';

const MAX_CONTROL_BODY = 1024 * 1024;

/** What a server's control API can do besides its own faults and state. */
export interface ControlContext {
  /** The pool this server starts servers into (`POST /servers`); absent on a pool's member. */
  readonly pool?: ServerPool;
  /**
   * Stops this server and takes it out of its pool (`DELETE {control}`); only on a pool's
   * member. It accepts no connection from then on, and stops the rest once `res` is sent.
   */
  readonly leave?: (res: ServerResponse) => void;
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

async function readJson(req: IncomingMessage, empty?: unknown): Promise<unknown> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > MAX_CONTROL_BODY) throw new ChaosInputError('control request body over 1 MiB');
  }
  if (text.trim() === '' && empty !== undefined) return empty;
  try {
    return JSON.parse(text);
  } catch {
    throw new ChaosInputError('control request body is not JSON');
  }
}

const ROUTES = 'GET /state, POST /faults, POST /reset, POST /servers, GET /servers, DELETE (a pool server); GET / (the live view), /live (its WebSocket)';

/**
 * The control API under `/_chaos`, never subject to faults:
 * - `POST /faults`: one fault or a list → `{ "applied": n }`; a bad fault → 400 `{ "error": … }`;
 * - `GET /state`: uptime, faults in force, sessions, execution ledger, resource, wire log;
 * - `POST /reset`: clears faults, ledger and wire log;
 * - `POST /servers`: a new server of the pool with the options in the body → 201 `{ url, control }`;
 *   `GET /servers` lists them; `DELETE` on a pool server's own control URL stops it.
 *
 * @example
 * await fetch(`${chaos.control}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'restart' }) });
 * const { url, control } = await (await fetch(`${chaos.control}/servers`, { method: 'POST', body: '{"dialect":"amdahl"}' })).json();
 * await fetch(control, { method: 'DELETE' });
 */
export async function handleControl(chaos: ChaosServer, req: IncomingMessage, res: ServerResponse, path: string, context: ControlContext = {}): Promise<void> {
  try {
    if (req.method === 'GET' && path === '/state') return json(res, 200, chaos.state());
    if (req.method === 'POST' && path === '/reset') return (chaos.reset(), json(res, 200, { reset: true }));
    if (req.method === 'POST' && path === '/faults') {
      const faults = parseFaults(await readJson(req));
      await chaos.applyFaults(faults);
      return json(res, 200, { applied: faults.length });
    }
    if (path === '/servers' && (req.method === 'POST' || req.method === 'GET')) {
      if (!context.pool) return json(res, 404, { error: 'a pool server starts no servers: POST /servers to the pool it came from' });
      if (req.method === 'GET') return json(res, 200, { servers: context.pool.list() });
      const server = await context.pool.create(parsePoolServerOptions(await readJson(req, {})));
      return json(res, 201, { url: server.url, control: server.control });
    }
    if (req.method === 'DELETE' && (path === '' || path === '/')) {
      const leave = context.leave;
      if (!leave) return json(res, 405, { error: 'only a server of a pool stops with DELETE; this one stops with its process' });
      leave(res);
      return json(res, 200, { stopped: true });
    }
    json(res, 404, { error: `control API: ${ROUTES}` });
  } catch (error) {
    if (error instanceof ChaosInputError) return json(res, 400, { error: error.message });
    if (error instanceof PoolFullError) return json(res, 503, { error: error.message });
    throw error;
  }
}
