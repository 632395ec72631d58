import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Backend } from './backend.ts';
import { chooseBackend } from './backend-choice.ts';
import { REAL_CLOCK, type ChaosClock } from './chaos-clock.ts';
import type { ChaosServer, ChaosState } from './chaos-contract.ts';
import type { ChaosServerOptions } from './chaos-options.ts';
import { ChaosRoutes, CONTROL_PATH, MCP_PATH } from './chaos-routes.ts';
import { isLoopbackHost, parseControlOrigin } from './control-access.ts';
import type { ControlContext } from './control-api.ts';
import { FaultEffects } from './fault-effects.ts';
import { FaultLayer } from './fault-layer.ts';
import { FaultPlan } from './fault-plan.ts';
import type { Fault } from './faults.ts';
import { ExecutionLedger } from './ledger.ts';
import { LiveFeed } from './live-feed.ts';
import { LiveHub } from './live-hub.ts';
import type { PoolServerOptions } from './pool-options.ts';
import { ChangeableResource } from './resource.ts';
import { ServerPool } from './server-pool.ts';
import { SessionReaper } from './session-reaper.ts';
import { SessionRegistry } from './session-registry.ts';
import { TaskJobs } from './task-jobs.ts';
import { Uptime } from './uptime.ts';
import { WireLog, type WireEntry } from './wire-log.ts';

export type { AppliedFault, ChaosServer, ChaosState } from './chaos-contract.ts';
export type { ChaosServerOptions } from './chaos-options.ts';

/** How long an idle connection is kept (Node's default is 5 s). */
const KEEP_ALIVE_MS = 65_000;

/**
 * A chaos server's life: it binds, starts its faults and schedule, refuses connections for a
 * while when a fault says so, reports its state, and stops. What it serves is the routes' and
 * the fault layer's; what a fault does is the effects'; ending sessions is the reaper's.
 */
class ChaosHost implements ChaosServer {
  readonly #ledger = new ExecutionLedger();
  readonly #resource = new ChangeableResource();
  readonly #log = new WireLog();
  readonly #clock: ChaosClock;
  readonly #uptime: Uptime;
  readonly #createdAtMs: number;
  readonly #registry = new SessionRegistry(() => this.#clock.now());
  readonly #tasks: TaskJobs;
  readonly #plan: FaultPlan;
  readonly #backend: Backend;
  readonly #reaper: SessionReaper;
  readonly #effects: FaultEffects;
  readonly #http: Server;
  readonly #sockets = new Set<Socket>();
  /** Sockets carrying a control request now: a refusal it asked for must not cut its own reply. */
  readonly #controlSockets = new Set<Socket>();
  /** What cancels each timer still to run. */
  readonly #timers = new Set<() => void>();
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
    this.#createdAtMs = this.#clock.now();
    this.#uptime = new Uptime(this.#clock);
    this.#controlOrigins = new Set((options.controlOrigins ?? []).map(parseControlOrigin));
    // A server of a pool leaves it with DELETE: no new connection from the moment it is asked,
    // the rest once the answer is out. Any other server is a pool of its own.
    const leave = (res: ServerResponse) => {
      this.#http.close();
      res.once('close', () => void left?.());
    };
    this.#control = left ? { leave } : { pool: new ServerPool((pooled, onLeft) => this.#startMember(pooled, onLeft)) };
    this.#plan = new FaultPlan(options.dialect ?? 'typescript-sdk');
    this.#tasks = new TaskJobs(options.taskBinding);
    this.#backend = chooseBackend(options, {
      ledger: this.#ledger, resource: this.#resource, tasks: this.#tasks, clock: this.#clock, onSessionStarted: (id: string) => this.#sessionStarted(id),
    });
    const [registry, backend, live, plan, createdAtMs] = [this.#registry, this.#backend, this.#live, this.#plan, this.#createdAtMs];
    this.#reaper = new SessionReaper({ registry, backend, live, plan, createdAtMs });
    this.#effects = new FaultEffects({
      clock: this.#clock, createdAtMs, registry, reaper: this.#reaper, backend, tasks: this.#tasks, resource: this.#resource, plan, live,
      uptime: this.#uptime, refuse: (ms) => this.#refuse(ms),
    });
    const origin = () => `http://${this.#hostForUrl()}:${this.#port}`;
    const faultLayer = new FaultLayer({
      plan, registry, reaper: this.#reaper, backend, log: this.#log, live, uptime: this.#uptime, auth: options.auth, origin, serving: this.#serving,
    });
    this.#viewers = new LiveHub(live, () => live.hello(backend.mode, plan.snapshot(),
      registry.all().map((s) => ({ session: s.ordinal, openedAtMs: s.createdAtMs - createdAtMs }))));
    const routes = new ChaosRoutes({
      server: this, control: this.#control, faultLayer, viewers: this.#viewers, auth: options.auth, exposeSessionId: options.exposeSessionId !== false,
      controlOrigins: this.#controlOrigins, loopbackBound: () => isLoopbackHost(this.#hostForUrl()), origin, controlSockets: this.#controlSockets,
    });
    // Idle connections are kept past any pause a client makes between calls (Node's 5 s would
    // close one under a client's request on a busy machine: a network failure no fault asked for).
    this.#http = createServer((req, res) => void routes.route(req, res));
    this.#http.keepAliveTimeout = KEEP_ALIVE_MS;
    this.#http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => routes.upgrade(req, socket, head));
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
    this.#uptime.restart();
    for (const fault of this.options.faults ?? []) void this.#effects.apply(fault);
    for (const { atMs, fault } of this.options.schedule ?? []) this.#later(atMs, () => void this.#effects.apply(fault));
  }

  /** Runs `run` in `ms` on the server's clock, unless the server stops first; a manual clock awaits what it returns. */
  #later(ms: number, run: () => unknown): void {
    const cancel = this.#clock.after(ms, () => (this.#timers.delete(cancel), run()));
    this.#timers.add(cancel);
  }

  async applyFaults(faults: readonly Fault[]): Promise<void> {
    for (const fault of faults) await this.#effects.apply(fault);
  }

  #refuse(ms: number): void {
    if (this.#refusing) return;
    this.#refusing = true;
    this.#http.close();
    for (const socket of this.#sockets) if (!this.#controlSockets.has(socket)) socket.destroy();
    this.#later(ms, () => this.listen().finally(() => (this.#refusing = false)).catch(() => {}));
  }

  #sessionStarted(id: string): void {
    this.#live.sessionOpened(id, this.#registry.add(id).ordinal, this.#serving.getStore());
    this.#reaper.enforceCapacity(id);
  }

  state(): ChaosState {
    this.#reaper.expireIdle();
    return {
      mode: this.#backend.mode, taskBinding: this.#tasks.binding, uptimeMs: this.#uptime.ms(), uptimeSeconds: this.#uptime.seconds(), refusing: this.#refusing,
      history: this.#effects.history(), faults: this.#plan.snapshot(), sessions: this.#registry.snapshot(), ledger: this.#ledger.snapshot(),
      resource: this.#resource.text, log: this.#log.entries(),
    };
  }

  reset(): void {
    this.#plan.clear();
    this.#ledger.clear();
    this.#log.clear();
    this.#live.reset(this.#plan.snapshot());
  }

  async stop(): Promise<void> {
    await this.#control.pool?.stopAll();
    for (const cancel of this.#timers) cancel();
    this.#timers.clear();
    await this.#viewers.close(); // each viewer is told the server stopped, not left to guess
    await this.#backend.close().catch(() => {});
    this.#tasks.clear();
    await new Promise<void>((resolve) => {
      this.#http.close(() => resolve());
      for (const socket of this.#sockets) socket.destroy();
      if (!this.#http.listening) resolve();
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
