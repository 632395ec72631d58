import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { redactSessionId } from '@mcp-resilience/core';
import type { Backend } from './backend.ts';
import { REAL_CLOCK, type ChaosClock } from './chaos-clock.ts';
import { controlAllowed, controlCorsHeaders, isLoopbackHost, liveAllowed, parseControlOrigin } from './control-access.ts';
import { handleControl, type ControlContext } from './control-api.ts';
import { sessionGoneResponse, type CannedResponse, type DialectName } from './dialect-responses.ts';
import { FaultPlan, type FaultPlanSnapshot } from './fault-plan.ts';
import type { Fault, ScheduledFault } from './faults.ts';
import { ExecutionLedger } from './ledger.ts';
import { createLegacyBackend } from './legacy-backend.ts';
import { LiveFeed } from './live-feed.ts';
import { LiveHub, refuseUpgrade } from './live-hub.ts';
import { serveLivePage } from './live-page.ts';
import type { SessionEndReason } from './live-view/live-schema.ts';
import { createModernBackend } from './modern-backend.ts';
import { createProxyBackend } from './proxy-backend.ts';
import type { ProtectedResource } from './protected-resource.ts';
import type { PoolServerOptions } from './pool-options.ts';
import { ChangeableResource } from './resource.ts';
import { ServerPool } from './server-pool.ts';
import { SessionRegistry, type SessionEntry, type SessionSnapshot } from './session-registry.ts';
import type { TaskBinding } from './task-binding.ts';
import { TaskJobs } from './task-jobs.ts';
import { replaceAnswer, statusAnswer } from './status-answer.ts';
import { breakStream } from './stream-dropper.ts';
import { WireLog, type WireEntry } from './wire-log.ts';


/** How long an idle connection is kept (Node's default is 5 s). */
const KEEP_ALIVE_MS = 65_000;
/** How to start a chaos server. */
export interface ChaosServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: any free port. */
  readonly port?: number;
  /** `legacy` (default): sessionful, 2025-03-26 … 2025-11-25. `modern`: 2026-07-28, stateless. */
  readonly mode?: 'legacy' | 'modern';
  /** Put the faults in front of this Streamable HTTP endpoint instead of the built-in server. */
  readonly upstream?: string;
  /** How "session gone" is said (default `typescript-sdk`, what the official server says). */
  readonly dialect?: DialectName;
  /** Expose `Mcp-Session-Id` to browsers through CORS (default true; false reproduces the common mistake). */
  readonly exposeSessionId?: boolean;
  /** Answer requests with JSON bodies instead of event streams (legacy mode; no progress, no resumption). */
  readonly jsonResponses?: boolean;
  /** Faults in force from the start. */
  readonly faults?: readonly Fault[];
  /** Faults applied at given times after the start. */
  readonly schedule?: readonly ScheduledFault[];
  /** Tasks belong to their `session` (default: lost with it, as the SDK's store does it) or to the `server` (lost on a restart only). */
  readonly taskBinding?: TaskBinding;
  /**
   * Origins (`http://127.0.0.1:5173`) given CORS on the control API, so a page served from
   * one may drive it; any other origin is refused (403). Default none. See the README for the risk.
   */
  readonly controlOrigins?: readonly string[];
  /**
   * What the server times with (uptime, idle budgets, the schedule, downtimes, the tools' work):
   * the wall clock by default; a test passes a `manualClock()` and moves time itself.
   */
  readonly clock?: ChaosClock;
  /**
   * Make `/mcp` a protected resource (bearer tokens, with its metadata and token endpoint on the
   * same origin): every request needs a token it issued and has not expired, checked before or
   * after the session lookup as its `order` says. Programmatic only (the churn check's credential scenarios).
   */
  readonly auth?: ProtectedResource;
}

/** A fault as it was applied: when, and (for `refuse` and a restart's `downMs`) until when. */
export interface AppliedFault {
  readonly kind: Fault['kind'];
  readonly atMs: number;
  readonly untilMs?: number;
}

/** What `GET {control}/state` returns. */
export interface ChaosState {
  readonly mode: 'legacy' | 'modern' | 'proxy';
  readonly taskBinding: TaskBinding;
  readonly uptimeMs: number;
  readonly uptimeSeconds: number;
  readonly refusing: boolean;
  /** Every fault applied, oldest first (the last 1,000), on the server's clock since it started. */
  readonly history: readonly AppliedFault[];
  readonly faults: FaultPlanSnapshot;
  readonly sessions: readonly SessionSnapshot[];
  readonly ledger: Readonly<Record<string, number>>;
  readonly resource: string;
  readonly log: readonly WireEntry[];
}

/** A running chaos server. */
export interface ChaosServer {
  /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** The control API, `http://127.0.0.1:PORT/_chaos`. */
  readonly control: string;
  applyFaults(faults: readonly Fault[]): Promise<void>;
  state(): ChaosState;
  /** Clears faults, the ledger and the wire log (sessions stay). */
  reset(): void;
  stop(): Promise<void>;
}

const MCP_PATH = '/mcp';
const CONTROL_PATH = '/_chaos';
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const MAX_HISTORY = 1_000;

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) resolve(undefined);
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function firstMessage(body: unknown): { method?: string; id?: string | number | null; params?: Record<string, unknown> } {
  const message = Array.isArray(body) ? body[0] : body;
  return typeof message === 'object' && message !== null ? (message as ReturnType<typeof firstMessage>) : {};
}

function send(res: ServerResponse, { status, headers, body }: CannedResponse): void {
  res.writeHead(status, headers).end(body);
}

class ChaosHost implements ChaosServer {
  readonly ledger = new ExecutionLedger();
  readonly resource = new ChangeableResource();
  readonly tasks: TaskJobs;
  readonly log = new WireLog();
  readonly plan: FaultPlan;
  readonly #clock: ChaosClock;
  readonly registry = new SessionRegistry(() => this.#clock.now());
  readonly backend: Backend;
  readonly #http: Server;
  readonly #sockets = new Set<Socket>();
  /** Sockets carrying a control request now: a refusal it asked for must not cut its own reply. */
  readonly #controlSockets = new Set<Socket>();
  /** What cancels each timer still to run. */
  readonly #timers = new Set<() => void>();
  #startedAtMs: number;
  readonly #createdAtMs: number;
  readonly #history: AppliedFault[] = [];
  #refusing = false;
  #port = 0;
  readonly #control: ControlContext;
  readonly #controlOrigins: ReadonlySet<string>;
  /** What the live view is told (`{control}/live`), on one clock since the server started. */
  readonly #live = new LiveFeed(() => this.#clock.now() - this.#createdAtMs);
  readonly #viewers: LiveHub;
  /** The wire entry of the request being served, so that a session it opens is known as its own. */
  readonly #serving = new AsyncLocalStorage<WireEntry>();

  constructor(readonly options: ChaosServerOptions, left?: () => Promise<void>) {
    this.#clock = options.clock ?? REAL_CLOCK;
    this.#startedAtMs = this.#createdAtMs = this.#clock.now();
    this.#controlOrigins = new Set((options.controlOrigins ?? []).map(parseControlOrigin));
    // A server of a pool leaves it with DELETE: no new connection from the moment it is asked,
    // the rest once the answer is out. Any other server is a pool of its own.
    const leave = (res: ServerResponse) => {
      this.#http.close();
      res.once('close', () => void left?.());
    };
    this.#control = left ? { leave } : { pool: new ServerPool((pooled, onLeft) => this.#startMember(pooled, onLeft)) };
    this.plan = new FaultPlan(options.dialect ?? 'typescript-sdk');
    this.tasks = new TaskJobs(options.taskBinding);
    const context = { ledger: this.ledger, resource: this.resource, tasks: this.tasks, clock: this.#clock, onSessionStarted: (id: string) => this.#sessionStarted(id) };
    this.backend = options.upstream !== undefined
      ? createProxyBackend(options.upstream, context.onSessionStarted)
      : options.mode === 'modern' ? createModernBackend(context) : createLegacyBackend({ ...context, jsonResponses: options.jsonResponses === true });
    // Idle connections are kept past any pause a client makes between calls (Node's 5 s would
    // close one under a client's request on a busy machine: a network failure no fault asked for).
    this.#http = createServer((req, res) => void this.#route(req, res));
    this.#http.keepAliveTimeout = KEEP_ALIVE_MS;
    this.#viewers = new LiveHub(this.#live, () => this.#live.hello(this.backend.mode, this.plan.snapshot(),
      this.registry.all().map((s) => ({ session: s.ordinal, openedAtMs: s.createdAtMs - this.#createdAtMs }))));
    this.#http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.#upgrade(req, socket, head));
    this.#http.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  get url(): string {
    return `http://${this.#hostForUrl()}:${this.#port}${MCP_PATH}`;
  }

  get control(): string {
    return `http://${this.#hostForUrl()}:${this.#port}${CONTROL_PATH}`;
  }

  #origin(): string {
    return `http://${this.#hostForUrl()}:${this.#port}`;
  }

  #hostForUrl(): string {
    const host = this.options.host ?? '127.0.0.1';
    return host.includes(':') ? `[${host}]` : host;
  }

  /** A server of this one's pool: the options asked for, bound where this one is, driven by the same origins. */
  async #startMember(pooled: PoolServerOptions, left: (server: ChaosServer) => Promise<void>): Promise<ChaosServer> {
    const options = {
      ...pooled, port: 0, ...(this.options.host === undefined ? {} : { host: this.options.host }), controlOrigins: [...this.#controlOrigins], clock: this.#clock,
    };
    const member: ChaosHost = new ChaosHost(options, () => left(member));
    await member.listen();
    member.start();
    return member;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#http.once('error', reject);
      this.#http.listen(this.#port || this.options.port || 0, this.options.host ?? '127.0.0.1', () => {
        this.#http.off('error', reject);
        resolve();
      });
    });
    const address = this.#http.address();
    if (typeof address === 'object' && address !== null) this.#port = address.port;
  }

  start(): void {
    this.#startedAtMs = this.#clock.now();
    for (const fault of this.options.faults ?? []) void this.apply(fault);
    for (const { atMs, fault } of this.options.schedule ?? []) this.#later(atMs, () => void this.apply(fault));
  }

  /** Runs `run` in `ms` on the server's clock, unless the server stops first; a manual clock awaits what it returns. */
  #later(ms: number, run: () => unknown): void {
    const cancel = this.#clock.after(ms, () => (this.#timers.delete(cancel), run()));
    this.#timers.add(cancel);
  }

  async applyFaults(faults: readonly Fault[]): Promise<void> {
    for (const fault of faults) await this.apply(fault);
  }

  async apply(fault: Fault): Promise<void> {
    const atMs = this.#clock.now() - this.#createdAtMs;
    const downMs = fault.kind === 'refuse' ? fault.ms : fault.kind === 'restart' ? fault.downMs : undefined;
    this.#history.push({ kind: fault.kind, atMs, ...(downMs ? { untilMs: atMs + downMs } : {}) });
    if (this.#history.length > MAX_HISTORY) this.#history.shift();
    this.#live.faultApplied(fault, atMs, downMs ? atMs + downMs : undefined);
    switch (fault.kind) {
      case 'evict':
        return this.#evict(this.#targets(fault.session), 'evicted');
      case 'restart':
        for (const session of this.registry.all()) this.#live.sessionEnded(session.ordinal, 'restart');
        this.registry.clear();
        this.tasks.clear(); // a process that died took its tasks with it
        await this.backend.dropAll();
        this.#startedAtMs = this.#clock.now();
        if (fault.downMs) this.#refuse(fault.downMs);
        return;
      case 'refuse':
        return this.#refuse(fault.ms);
      case 'change-resource':
        return this.resource.set(fault.text);
      case 'forget-tasks':
        return this.tasks.clear();
      default:
        this.plan.add(fault);
        if (fault.kind === 'capacity') this.#enforceCapacity();
    }
  }

  #targets(which: 'all' | 'oldest' | 'newest' | number): string[] {
    const all = this.registry.all().sort((a, b) => a.ordinal - b.ordinal);
    if (which === 'all') return all.map((s) => s.id);
    const one = which === 'oldest' ? all[0] : which === 'newest' ? all.at(-1) : all.find((s) => s.ordinal === which);
    return one ? [one.id] : [];
  }

  async #evict(ids: readonly string[], reason: SessionEndReason): Promise<void> {
    for (const id of ids) this.#ended(this.registry.get(id), reason);
    await Promise.all(ids.map((id) => this.backend.dropSession(id).catch(() => {})));
  }

  #refuse(ms: number): void {
    if (this.#refusing) return;
    this.#refusing = true;
    this.#http.close();
    for (const socket of this.#sockets) if (!this.#controlSockets.has(socket)) socket.destroy();
    this.#later(ms, () => this.listen().finally(() => (this.#refusing = false)).catch(() => {}));
  }

  /** Takes a session out of the registry, and tells the live view when (an idle one: when it crossed the budget). */
  #ended(session: SessionEntry | undefined, reason: SessionEndReason): void {
    if (!session || !this.registry.remove(session.id)) return;
    const idleUntil = reason === 'idle' ? session.lastActivityAtMs + (this.plan.idleBudgetMs ?? 0) - this.#createdAtMs : undefined;
    this.#live.sessionEnded(session.ordinal, reason, idleUntil);
  }

  #sessionStarted(id: string): void {
    this.#live.sessionOpened(id, this.registry.add(id).ordinal, this.#serving.getStore());
    this.#enforceCapacity(id);
  }

  /** Over capacity, the least recently used idle sessions go; a session in use never does. */
  #enforceCapacity(newest?: string): void {
    const max = this.plan.capacity;
    if (max === null) return;
    while (this.registry.all().length > max) {
      const victim = this.registry.leastRecentlyUsedIdle(newest);
      if (!victim) return;
      void this.#evict([victim.id], 'capacity');
    }
  }

  #expireIdle(): void {
    const budget = this.plan.idleBudgetMs;
    if (budget !== null) void this.#evict(this.registry.idleBeyond(budget), 'idle');
  }

  state(): ChaosState {
    this.#expireIdle();
    const uptimeMs = this.#clock.now() - this.#startedAtMs;
    return {
      mode: this.backend.mode, taskBinding: this.tasks.binding, uptimeMs, uptimeSeconds: this.#uptimeSeconds(), refusing: this.#refusing, history: [...this.#history],
      faults: this.plan.snapshot(), sessions: this.registry.snapshot(), ledger: this.ledger.snapshot(),
      resource: this.resource.text, log: this.log.entries(),
    };
  }

  #uptimeSeconds(): number {
    return Math.floor((this.#clock.now() - this.#startedAtMs) / 1000);
  }

  reset(): void {
    this.plan.clear();
    this.ledger.clear();
    this.log.clear();
    this.#live.reset(this.plan.snapshot());
  }

  async stop(): Promise<void> {
    await this.#control.pool?.stopAll();
    for (const cancel of this.#timers) cancel();
    this.#timers.clear();
    await this.#viewers.close(); // each viewer is told the server stopped, not left to guess
    await this.backend.close().catch(() => {});
    this.tasks.clear();
    await new Promise<void>((resolve) => {
      this.#http.close(() => resolve());
      for (const socket of this.#sockets) socket.destroy();
      if (!this.#http.listening) resolve();
    });
  }

  #cors(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
    res.setHeader('vary', 'origin');
    res.setHeader('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
    res.setHeader('access-control-allow-headers',
      'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name');
    // Retry-After is not a CORS-safelisted response header: without it here a page backs off blind.
    const exposed = `${this.options.exposeSessionId === false ? '' : 'mcp-session-id, '}mcp-protocol-version, retry-after${this.options.auth ? ', www-authenticate' : ''}`;
    res.setHeader('access-control-expose-headers', exposed);
  }

  /**
   * The control API answers programs on this machine, and pages only from the origins given
   * `controlOrigins` (CORS for exactly those); when bound to loopback, no foreign Host (DNS rebinding).
   */
  #controlAllowed(req: IncomingMessage): boolean {
    return controlAllowed(req.headers, { origins: this.#controlOrigins, loopbackBound: isLoopbackHost(this.#hostForUrl()) });
  }

  #liveAllowed(req: IncomingMessage): boolean {
    return liveAllowed(req.headers, { origins: this.#controlOrigins, loopbackBound: isLoopbackHost(this.#hostForUrl()) });
  }

  /** `{control}/live`: the live feed over a WebSocket, for whoever may see the live view; nothing else upgrades. */
  #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (new URL(req.url ?? '/', 'http://x').pathname !== `${CONTROL_PATH}/live`) return refuseUpgrade(socket, 404, 'the live feed is at /_chaos/live');
    if (!this.#liveAllowed(req)) return refuseUpgrade(socket, 403, 'live feed: loopback only');
    // A viewer stays through a refusal or a restart's downtime: it is there to watch them.
    this.#controlSockets.add(socket as Socket);
    socket.once('close', () => this.#controlSockets.delete(socket as Socket));
    this.#viewers.upgrade(req, socket, head);
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method === 'GET' && (path === CONTROL_PATH || path === `${CONTROL_PATH}/` || path.startsWith(`${CONTROL_PATH}/view/`))) {
        if (!this.#liveAllowed(req)) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('live view: loopback only');
        if (path === CONTROL_PATH) return void res.writeHead(301, { location: `${CONTROL_PATH}/` }).end();
        if (await serveLivePage(path.slice(CONTROL_PATH.length), res, [...this.#controlOrigins])) return;
      }
      if (path === CONTROL_PATH || path.startsWith(`${CONTROL_PATH}/`)) {
        if (!this.#controlAllowed(req)) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('control API: loopback only');
        for (const [name, value] of Object.entries(controlCorsHeaders(req.headers.origin))) res.setHeader(name, value);
        if (req.method === 'OPTIONS') return void res.writeHead(204).end();
        this.#controlSockets.add(req.socket);
        res.on('close', () => this.#controlSockets.delete(req.socket));
        res.setHeader('connection', 'close');
        return await handleControl(this, req, res, path.slice(CONTROL_PATH.length), this.#control);
      }
      this.#cors(req, res);
      if (req.method === 'OPTIONS') return void res.writeHead(204).end();
      // Decided at once: an await before #mcp reads the body would miss the chunks the wire tap already set flowing.
      const served = this.options.auth?.serve(path, req, res, this.#origin());
      if (served) return await served;
      if (path !== MCP_PATH) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the MCP endpoint is /mcp');
      await this.#mcp(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(`chaos server error: ${String(error)}`);
      else res.destroy();
    }
  }

  async #mcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const httpMethod = req.method ?? 'GET';
    const raw = httpMethod === 'POST' ? await readBody(req) : '';
    if (raw === undefined) return void res.writeHead(413, { 'content-type': 'text/plain' }).end('request body over 4 MiB');
    const body = httpMethod === 'POST' ? parseBody(raw) : undefined;
    const rpc = firstMessage(body);
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    this.#expireIdle();
    const session = sessionId === undefined ? undefined : this.registry.get(sessionId);
    const wire = this.log.add({
      atMs: this.#clock.now() - this.#startedAtMs, httpMethod,
      ...(rpc.method === undefined ? {} : { rpcMethod: rpc.method }), ...(rpc.id === undefined ? {} : { rpcId: rpc.id }),
      ...(sessionId === undefined ? {} : { session: redactSessionId(sessionId) }),
      ...(session === undefined ? {} : { sessionOrdinal: session.ordinal }),
    });
    this.#live.requestStarted(wire);
    res.on('close', () => {
      wire.status = res.statusCode;
      this.#live.requestEnded(wire);
    });
    const shape = { httpMethod, isRequest: rpc.id !== undefined, ...(rpc.method === undefined ? {} : { rpcMethod: rpc.method }) };

    const status = this.plan.takeStatus(shape);
    if (status) {
      wire.fault = `status ${status.status}`;
      return send(res, statusAnswer(status));
    }
    const unauthorized = this.options.auth?.challenge(req.headers.authorization, this.#origin());
    if (unauthorized && this.options.auth?.order === 'auth-first') return send(res, unauthorized);
    if (this.backend.mode !== 'modern' && sessionId !== undefined && !session) {
      wire.fault = `session-gone ${this.plan.dialect}`;
      return send(res, sessionGoneResponse(this.plan.dialect, { requestId: rpc.id, uptimeSeconds: this.#uptimeSeconds() }));
    }
    if (unauthorized) return send(res, unauthorized);
    // A status after the run replaces the whole answer: no stream of it is left to break.
    const replacing = this.plan.takeStatus(shape, true);
    const drop = replacing ? undefined : this.plan.takeDrop(shape);
    if (replacing) replaceAnswer(res, statusAnswer(replacing), () => (wire.fault = `status ${replacing.status} after run`));
    if (drop) breakStream(res, drop, () => (wire.fault = 'drop-stream'));
    if (session) this.#track(session, httpMethod, rpc, res);
    await this.#serving.run(wire, () => this.backend.handle(req, res, body));
    // The client ended its session: it is gone for the fault layer too (and its resources freed).
    if (httpMethod === 'DELETE' && session && res.statusCode >= 200 && res.statusCode < 300) await this.#evict([session.id], 'deleted');
  }

  /** In use while the request runs (a GET stream for as long as it is open); session state once it succeeds. */
  #track(session: NonNullable<ReturnType<SessionRegistry['get']>>, httpMethod: string, rpc: ReturnType<typeof firstMessage>, res: ServerResponse): void {
    const stream = httpMethod === 'GET';
    if (stream) this.registry.stream(session, 1);
    else this.registry.busy(session, 1);
    res.on('close', () => (stream ? this.registry.stream(session, -1) : this.registry.busy(session, -1)));
    res.on('finish', () => {
      if (res.statusCode !== 200) return;
      const uri = rpc.params?.uri;
      const level = rpc.params?.level;
      if (rpc.method === 'resources/subscribe' && typeof uri === 'string') session.subscriptions.add(uri);
      if (rpc.method === 'resources/unsubscribe' && typeof uri === 'string') session.subscriptions.delete(uri);
      if (rpc.method === 'logging/setLevel' && typeof level === 'string') session.logLevel = level;
    });
  }
}

/**
 * Starts a chaos server: a real MCP server over Streamable HTTP (the official SDK's), or a
 * proxy to another one, behind a fault layer. Binds 127.0.0.1 and a free port unless told
 * otherwise.
 *
 * @example
 * const chaos = await startChaosServer({ dialect: 'amdahl' });
 * await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
 * await chaos.stop();
 */
export async function startChaosServer(options: ChaosServerOptions = {}): Promise<ChaosServer> {
  const host = new ChaosHost(options);
  await host.listen();
  host.start();
  return host;
}
