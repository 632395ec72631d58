import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChaosServer } from './chaos-server.ts';
import { ChaosInputError, parseFaults } from './faults.ts';

const MAX_CONTROL_BODY = 1024 * 1024;

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > MAX_CONTROL_BODY) throw new ChaosInputError('control request body over 1 MiB');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ChaosInputError('control request body is not JSON');
  }
}

/**
 * The control API under `/_chaos`, never subject to faults:
 * - `POST /faults`: one fault or a list → `{ "applied": n }`; a bad fault → 400 `{ "error": … }`;
 * - `GET /state`: uptime, faults in force, sessions, execution ledger, resource, wire log;
 * - `POST /reset`: clears faults, ledger and wire log.
 *
 * @example
 * await fetch(`${chaos.control}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'restart' }) });
 */
export async function handleControl(chaos: ChaosServer, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  try {
    if (req.method === 'GET' && path === '/state') return json(res, 200, chaos.state());
    if (req.method === 'POST' && path === '/reset') return (chaos.reset(), json(res, 200, { reset: true }));
    if (req.method === 'POST' && path === '/faults') {
      const faults = parseFaults(await readJson(req));
      await chaos.applyFaults(faults);
      return json(res, 200, { applied: faults.length });
    }
    json(res, 404, { error: 'control API: GET /state, POST /faults, POST /reset' });
  } catch (error) {
    if (error instanceof ChaosInputError) return json(res, 400, { error: error.message });
    throw error;
  }
}
