/** One HTTP exchange as the counting fetch saw it, on the timeline it shares with the engine's events. */
export interface WireRecord {
  /** When it was sent, on the shared {@link Timeline}. */
  readonly sentAt: number;
  readonly httpMethod: string;
  /** The JSON-RPC methods of the body (a batch has several; GET and DELETE have none). */
  readonly rpcMethods: readonly string[];
  /** `params.arguments.message` (or `.name`) of a `tools/call`: names the logical call. */
  readonly callArgument?: string;
  /** The `Mcp-Session-Id` the request carried, or `null`. */
  readonly sessionId: string | null;
  /** When the answer's head arrived (or the fetch failed), on the same timeline. */
  answeredAt?: number;
  status?: number;
  /** The `Mcp-Session-Id` the answer carried (an `initialize` answer names the new session). */
  issuedSessionId?: string | null;
  /** The fetch failed without an answer (connection refused, reset, aborted). */
  failed?: string;
}

/** A counter shared by the counting fetch and the event log, so that their entries can be ordered. */
export interface Timeline {
  tick(): number;
}

/**
 * A clock that only counts.
 *
 * @example
 * const timeline = createTimeline(); timeline.tick(); // 1
 */
export function createTimeline(): Timeline {
  let now = 0;
  return { tick: () => ++now };
}

function headerOf(headers: HeadersInit | undefined, name: string): string | null {
  return new Headers(headers).get(name);
}

function messagesOf(body: unknown): Record<string, unknown>[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed]).filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null);
  } catch {
    return [];
  }
}

function callArgumentOf(messages: readonly Record<string, unknown>[]): string | undefined {
  const call = messages.find((m) => m.method === 'tools/call');
  const args = (call?.params as { arguments?: Record<string, unknown> } | undefined)?.arguments;
  const value = args?.message ?? args?.name;
  return typeof value === 'string' ? value : undefined;
}

/**
 * A fetch that goes to the network (the global `fetch`) and records every request it is
 * given: the one to put *under* the engine (`createResilientFetch({ fetch })`) so that a test
 * sees exactly what the engine sent — method, JSON-RPC method, the session id it carried — and
 * what came back.
 *
 * @example
 * const counting = createCountingFetch(createTimeline());
 * const engine = createResilientFetch({ fetch: counting.fetch });
 * // … later: counting.records.filter((r) => r.rpcMethods.includes('initialize')).length
 */
export function createCountingFetch(timeline: Timeline): { readonly fetch: typeof fetch; readonly records: WireRecord[] } {
  const records: WireRecord[] = [];
  const counting: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const headers = init?.headers ?? request?.headers;
    const messages = messagesOf(init?.body);
    const callArgument = callArgumentOf(messages);
    const record: WireRecord = {
      sentAt: timeline.tick(),
      httpMethod: (init?.method ?? request?.method ?? 'GET').toUpperCase(),
      rpcMethods: messages.map((m) => m.method).filter((m): m is string => typeof m === 'string'),
      ...(callArgument === undefined ? {} : { callArgument }),
      sessionId: headerOf(headers, 'mcp-session-id'),
    };
    records.push(record);
    try {
      const response = await fetch(input, init);
      record.answeredAt = timeline.tick();
      record.status = response.status;
      record.issuedSessionId = response.headers.get('mcp-session-id');
      return response;
    } catch (error) {
      record.answeredAt = timeline.tick();
      record.failed = String((error as Error)?.cause ?? error);
      throw error;
    }
  };
  return { fetch: counting, records };
}
