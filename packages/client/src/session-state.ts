import { isAnswerTo, type RpcMessage } from './messages.ts';

/** What a restore achieved on a new session. */
export interface Restored {
  readonly subscriptions: number;
  readonly logLevel?: string;
}

/**
 * The session state a server keeps and loses with a session: the resources the client
 * subscribed to and the log level it set. Recorded from the requests the server answered with a
 * result (not an error), and sent again on a new session, in one place.
 *
 * @example
 * if (state.record(request, answer)) save();
 * const restored = await state.restore((method, params) => sendOnNewSession(method, params));
 */
export class SessionState {
  readonly #subscriptions = new Set<string>();
  #logLevel: string | undefined;

  get subscriptions(): readonly string[] {
    return [...this.#subscriptions];
  }

  get logLevel(): string | undefined {
    return this.#logLevel;
  }

  /**
   * Takes a request and its answer (ids matched as the SDK matches them); returns whether the
   * state changed: only a `resources/subscribe`, `resources/unsubscribe` or `logging/setLevel`
   * answered with a result changes it.
   */
  record(request: RpcMessage, answer: RpcMessage): boolean {
    if (request.id == null || !isAnswerTo(answer, request.id) || !('result' in answer)) return false;
    const { method, params } = request;
    if (method === 'resources/subscribe' && typeof params?.uri === 'string') this.#subscriptions.add(params.uri);
    else if (method === 'resources/unsubscribe' && typeof params?.uri === 'string') this.#subscriptions.delete(params.uri);
    else if (method === 'logging/setLevel' && typeof params?.level === 'string') this.#logLevel = params.level;
    else return false;
    return true;
  }

  /** Takes the state a store kept. */
  load(subscriptions: readonly string[], logLevel: string | undefined): void {
    for (const uri of subscriptions) this.#subscriptions.add(uri);
    this.#logLevel = logLevel;
  }

  /**
   * Sends the state again with `send` (which answers whether the server accepted the request);
   * undefined when there was nothing to restore or nothing was accepted.
   */
  async restore(send: (method: string, params: Record<string, unknown>) => Promise<boolean>): Promise<Restored | undefined> {
    let subscriptions = 0;
    for (const uri of this.#subscriptions) if (await send('resources/subscribe', { uri })) subscriptions++;
    const level = this.#logLevel;
    const levelRestored = level !== undefined && (await send('logging/setLevel', { level }));
    if (subscriptions === 0 && !levelRestored) return undefined;
    return { subscriptions, ...(levelRestored ? { logLevel: level } : {}) };
  }
}
