import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ChaosServer } from './chaos-contract.ts';
import { controlAllowed, controlCorsHeaders, liveAllowed } from './control-access.ts';
import { handleControl, type ControlContext } from './control-api.ts';
import type { FaultLayer } from './fault-layer.ts';
import { refuseUpgrade, type LiveHub } from './live-hub.ts';
import { serveLivePage } from './live-page.ts';
import { setMcpCors } from './mcp-cors.ts';
import type { ProtectedResource } from './protected-resource.ts';

/** Where a chaos server serves MCP. */
export const MCP_PATH = '/mcp';
/** Where its control API and live view are. */
export const CONTROL_PATH = '/_chaos';

/** What the routes hand each request to, and who may reach the control API and the live view. */
export interface RouteParts {
  /** The server the control API drives. */
  readonly server: ChaosServer;
  readonly control: ControlContext;
  readonly faultLayer: FaultLayer;
  readonly viewers: LiveHub;
  readonly auth: ProtectedResource | undefined;
  /** Whether pages may read `Mcp-Session-Id` (CORS). */
  readonly exposeSessionId: boolean;
  /** Origins given CORS on the control API (and the live view). */
  readonly controlOrigins: ReadonlySet<string>;
  /** Whether the server is bound to loopback: then no foreign Host reaches control (DNS rebinding). */
  readonly loopbackBound: () => boolean;
  /** `http://host:port`. */
  readonly origin: () => string;
  /** Sockets carrying a control request or a live viewer: a refusal must not cut them. */
  readonly controlSockets: Set<Socket>;
}

/**
 * The chaos server's door: `/_chaos/` (the live view) and `/_chaos/*` (the control API) for
 * programs on this machine and the origins given; the protected resource's own paths; `/mcp`
 * through the fault layer, with CORS for any page; anything else 404.
 *
 * @example
 * const routes = new ChaosRoutes({ server, control, faultLayer, viewers, auth: undefined, exposeSessionId: true, controlOrigins, loopbackBound, origin, controlSockets });
 * http.on('request', (req, res) => void routes.route(req, res));
 */
export class ChaosRoutes {
  readonly #parts: RouteParts;

  constructor(parts: RouteParts) {
    this.#parts = parts;
  }

  /** `{control}/live`: the live feed over a WebSocket, for whoever may see the live view; nothing else upgrades. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (new URL(req.url ?? '/', 'http://x').pathname !== `${CONTROL_PATH}/live`) return refuseUpgrade(socket, 404, 'the live feed is at /_chaos/live');
    if (!this.#liveAllowed(req)) return refuseUpgrade(socket, 403, 'live feed: loopback only');
    // A viewer stays through a refusal or a restart's downtime: it is there to watch them.
    this.#parts.controlSockets.add(socket as Socket);
    socket.once('close', () => this.#parts.controlSockets.delete(socket as Socket));
    this.#parts.viewers.upgrade(req, socket, head);
  }

  async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { control, controlSockets, controlOrigins, auth } = this.#parts;
    try {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method === 'GET' && (path === CONTROL_PATH || path === `${CONTROL_PATH}/` || path.startsWith(`${CONTROL_PATH}/view/`))) {
        if (!this.#liveAllowed(req)) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('live view: loopback only');
        if (path === CONTROL_PATH) return void res.writeHead(301, { location: `${CONTROL_PATH}/` }).end();
        if (await serveLivePage(path.slice(CONTROL_PATH.length), res, [...controlOrigins])) return;
      }
      if (path === CONTROL_PATH || path.startsWith(`${CONTROL_PATH}/`)) {
        if (!this.#controlAllowed(req)) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('control API: loopback only');
        for (const [name, value] of Object.entries(controlCorsHeaders(req.headers.origin))) res.setHeader(name, value);
        if (req.method === 'OPTIONS') return void res.writeHead(204).end();
        controlSockets.add(req.socket);
        res.on('close', () => controlSockets.delete(req.socket));
        res.setHeader('connection', 'close');
        return await handleControl(this.#parts.server, req, res, path.slice(CONTROL_PATH.length), control);
      }
      setMcpCors(req, res, { exposeSessionId: this.#parts.exposeSessionId, bearerAuth: auth !== undefined });
      if (req.method === 'OPTIONS') return void res.writeHead(204).end();
      // Decided at once: an await before the fault layer reads the body would miss the chunks the wire tap already set flowing.
      const served = auth?.serve(path, req, res, this.#parts.origin());
      if (served) return await served;
      if (path !== MCP_PATH) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the MCP endpoint is /mcp');
      await this.#parts.faultLayer.serve(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(`chaos server error: ${String(error)}`);
      else res.destroy();
    }
  }

  /**
   * The control API answers programs on this machine, and pages only from the origins given
   * `controlOrigins` (CORS for exactly those); when bound to loopback, no foreign Host (DNS rebinding).
   */
  #controlAllowed(req: IncomingMessage): boolean {
    return controlAllowed(req.headers, { origins: this.#parts.controlOrigins, loopbackBound: this.#parts.loopbackBound() });
  }

  #liveAllowed(req: IncomingMessage): boolean {
    return liveAllowed(req.headers, { origins: this.#parts.controlOrigins, loopbackBound: this.#parts.loopbackBound() });
  }
}
