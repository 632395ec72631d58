import type { LiveFault, LiveFaultsInForce, LiveMessage, RequestOutcome, SessionEndReason } from './live-schema.ts';

/** One session's lane: from when it opened to when it ended (open while `endedAtMs` is absent). */
export interface Lane {
  readonly session: number;
  openedAtMs: number;
  endedAtMs?: number;
  reason?: SessionEndReason;
}

/** One request on a lane (`lane` 0: it carried no session, or one this server never issued). */
export interface Call {
  readonly seq: number;
  readonly atMs: number;
  readonly label: string;
  lane: number;
  status?: number;
  outcome?: RequestOutcome;
  fault?: string;
}

/** A fault, at the time it was applied, over a window for `refuse` and a restart's `downMs`. */
export interface Mark {
  readonly atMs: number;
  readonly untilMs?: number;
  readonly fault: LiveFault;
}

/** One line of the event list. */
export interface LogLine {
  readonly atMs: number;
  readonly text: string;
}

const MAX_CALLS = 2_000;
const MAX_LANES = 60;
const MAX_MARKS = 300;
const MAX_LOG = 200;

/** `12.3 s` on the feed's clock. */
export function clock(ms: number): string {
  return `${(ms / 1_000).toFixed(1)} s`;
}

/** A fault in a few words: `restart`, `status 429 ×2`, `idle-budget 2000 ms`. */
export function describeFault(fault: LiveFault): string {
  const f = fault as Record<string, unknown>;
  switch (fault.kind) {
    case 'evict': return `evict ${String(f.session)}`;
    case 'restart': return f.downMs ? `restart, down ${String(f.downMs)} ms` : 'restart';
    case 'idle-budget': return f.ms === null ? 'idle budget off' : `idle budget ${String(f.ms)} ms`;
    case 'capacity': return f.max === null ? 'capacity off' : `capacity ${String(f.max)}`;
    case 'status': return `status ${String(f.status)}${f.afterRun === true ? ' after run' : ''}${f.count && f.count !== 1 ? ` ×${String(f.count)}` : ''}${f.httpMethod ? ` (${String(f.httpMethod)})` : ''}`;
    case 'drop-stream': return `drop-stream${f.eventIds === false ? ', no ids' : ''}`;
    case 'refuse': return `refuse ${String(f.ms)} ms`;
    case 'dialect': return `dialect ${String(f.name)}`;
    default: return fault.kind;
  }
}

/**
 * What the live view draws, built from the feed's messages: lanes, calls, fault marks, the faults
 * in force, an event list and whether the server has stopped, each bounded (the oldest forgotten first), so a page left open on a
 * busy server keeps a steady size. A `hello` starts it afresh.
 *
 * @example
 * const timeline = new Timeline();
 * socket.onmessage = (m) => timeline.apply(JSON.parse(m.data));
 */
export class Timeline {
  mode = '';
  inForce: LiveFaultsInForce | undefined;
  readonly lanes = new Map<number, Lane>();
  readonly calls = new Map<number, Call>();
  marks: Mark[] = [];
  log: LogLine[] = [];
  /** The latest time the feed has told of. */
  nowMs = 0;
  /** When the server said it stopped (in order): nothing more will come. */
  stoppedAtMs: number | undefined;

  /** The earliest time still drawn. */
  get startMs(): number {
    const times = [...this.lanes.values()].map((l) => l.openedAtMs).concat(this.marks.map((m) => m.atMs));
    const first = this.calls.values().next().value;
    if (first) times.push(first.atMs);
    return times.length === 0 ? this.nowMs : Math.min(...times);
  }

  apply(message: LiveMessage): void {
    if (message.type === 'hello') return this.#hello(message);
    this.nowMs = Math.max(this.nowMs, message.atMs);
    switch (message.type) {
      case 'session-opened':
        this.#lane(message.session, message.atMs);
        return this.#say(message.atMs, `session ${message.session} opened`);
      case 'session-ended': {
        const lane = this.#lane(message.session, this.startMs);
        lane.endedAtMs = message.atMs;
        lane.reason = message.reason;
        return this.#say(message.atMs, `session ${message.session} ended: ${message.reason}`);
      }
      case 'fault':
        this.marks.push({ atMs: message.atMs, fault: message.fault, ...(message.untilMs === undefined ? {} : { untilMs: message.untilMs }) });
        if (this.marks.length > MAX_MARKS) this.marks.shift();
        this.#inForce(message.fault);
        return this.#say(message.atMs, `fault: ${describeFault(message.fault)}`);
      case 'request': {
        const label = `${message.httpMethod}${message.rpcMethod ? ` ${message.rpcMethod}` : ''}`;
        const lane = message.session ?? 0;
        if (lane !== 0) this.#lane(lane, message.atMs);
        this.calls.set(message.seq, { seq: message.seq, atMs: message.atMs, label, lane });
        if (this.calls.size > MAX_CALLS) this.calls.delete(this.calls.keys().next().value!);
        return;
      }
      case 'response': {
        const call = this.calls.get(message.seq);
        if (!call) return;
        Object.assign(call, { status: message.status, outcome: message.outcome }, message.fault === undefined ? {} : { fault: message.fault });
        if (message.opened !== undefined) call.lane = message.opened;
        const where = call.lane === 0 ? '' : ` · session ${call.lane}`;
        return this.#say(call.atMs, `${call.label}${where} → ${message.status} ${message.outcome}${message.fault ? ` (${message.fault})` : ''}`);
      }
      case 'reset':
        this.inForce = message.faults;
        return this.#say(message.atMs, 'reset: faults, ledger and wire log cleared');
      case 'stopped':
        this.stoppedAtMs = message.atMs;
        return this.#say(message.atMs, 'the server stopped: nothing more will come');
    }
  }

  #hello(hello: Extract<LiveMessage, { type: 'hello' }>): void {
    this.lanes.clear();
    this.calls.clear();
    this.marks = [];
    this.log = [];
    this.stoppedAtMs = undefined;
    this.mode = hello.mode;
    this.nowMs = hello.atMs;
    for (const { session, openedAtMs } of hello.sessions) this.#lane(session, openedAtMs);
    for (const event of hello.backlog) this.apply(event);
    this.inForce = hello.faults; // the backlog's faults are already in it
    this.nowMs = hello.atMs;
  }

  #lane(session: number, atMs: number): Lane {
    let lane = this.lanes.get(session);
    if (!lane) {
      lane = { session, openedAtMs: atMs };
      this.lanes.set(session, lane);
      if (this.lanes.size > MAX_LANES) this.lanes.delete(Math.min(...this.lanes.keys()));
    }
    return lane;
  }

  #inForce(fault: LiveFault): void {
    const now = this.inForce;
    if (!now) return;
    const f = fault as Record<string, unknown>;
    if (fault.kind === 'dialect') this.inForce = { ...now, dialect: String(f.name) };
    if (fault.kind === 'idle-budget') this.inForce = { ...now, idleBudgetMs: f.ms as number | null };
    if (fault.kind === 'capacity') this.inForce = { ...now, capacity: f.max as number | null };
  }

  #say(atMs: number, text: string): void {
    this.log.push({ atMs, text });
    if (this.log.length > MAX_LOG) this.log.shift();
  }
}
