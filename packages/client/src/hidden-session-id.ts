import { sessionIdUnread, unreadSessionId, type ErrorInfo } from '@mcp-resilience/core';

/**
 * Whether the current session's id may have been hidden from the engine (a browser's CORS that
 * exposes no `Mcp-Session-Id`): then the next answer to a request sent without it tells whether
 * the server wanted one (core's `unreadSessionId`), and that question is settled once.
 *
 * @example
 * hidden.opened({ revision, status: 200, sessionIdReadable: false, headersHidden: true });
 * const error = hidden.answeredWithoutId(revision, 400); // SESSION_ID_HIDDEN: the server wanted the id it could not be read
 */
export class HiddenSessionId {
  #unread = false;

  /** An `initialize` was answered: whether its session id may have been hidden. */
  opened(facts: { readonly revision: string; readonly status: number; readonly sessionIdReadable: boolean; readonly headersHidden: boolean }): void {
    this.#unread = sessionIdUnread({ ...facts, hasResult: true });
  }

  /** The application connects again: its answer will say. */
  reset(): void {
    this.#unread = false;
  }

  /** The error to fail with when an answer to a request sent without the id proves the server wanted it; settled by the first proof either way. */
  answeredWithoutId(revision: string, status: number): ErrorInfo | undefined {
    if (!this.#unread) return undefined;
    const proof = unreadSessionId({ revision, status });
    if (proof.kind !== 'undecided') this.#unread = false;
    return proof.kind === 'hidden' ? proof.error : undefined;
  }
}
