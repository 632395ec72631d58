import { failedFetch } from '@mcp-resilience/core';
import type { Sleep } from '@mcp-resilience/client/adapter';

const online = (): boolean => globalThis.navigator?.onLine !== false;

/**
 * The engine's wait in a browser. It keeps its due time on the wall clock: a background tab's
 * throttled timer is re-checked when the tab is shown again (`visibilitychange`), and a wait that
 * is due goes at once. While offline it pauses; coming back online ends it at once, so the next
 * attempt goes out without waiting out the rest of its backoff.
 *
 * @example
 * await browserSleep(500, init.signal);
 */
export const browserSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const due = Date.now() + ms;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = (settle: () => void) => {
      clearTimeout(timer);
      globalThis.removeEventListener?.('online', onOnline);
      globalThis.removeEventListener?.('offline', onOffline);
      globalThis.document?.removeEventListener('visibilitychange', check);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const check = () => {
      clearTimeout(timer);
      if (!online()) return; // paused until `online`
      const left = due - Date.now();
      if (left <= 0) end(resolve);
      else timer = setTimeout(check, left);
    };
    const onOnline = () => end(resolve);
    const onOffline = () => clearTimeout(timer);
    const onAbort = () => end(() => reject(signal?.reason));
    globalThis.addEventListener?.('online', onOnline);
    globalThis.addEventListener?.('offline', onOffline);
    globalThis.document?.addEventListener('visibilitychange', check);
    signal?.addEventListener('abort', onAbort, { once: true });
    check();
  });

/**
 * Whether a failed fetch provably sent nothing: the browser was offline (a browser reads every
 * other failure alike, `TypeError: Failed to fetch`, so online the answer is "maybe sent").
 */
export const offlineNotSent = (_error: unknown): boolean => failedFetch({ online: online() }).notSent;

/** Whether the browser hides headers of answers from `url`: a cross-origin endpoint, read under CORS. */
export const corsHidesHeaders = (url: string): boolean => {
  const here = globalThis.location?.origin;
  return here !== undefined && new URL(url, globalThis.location.href).origin !== here;
};

/**
 * The browser's `fetch` as the engine uses it: every DELETE is `keepalive` (it outlives the
 * page that sent it), and a fetch that failed without an answer says what the browser can tell
 * of it ("blocked or unreachable (CORS, network)", or "offline"), the browser's own error as `cause`.
 *
 * @example
 * const fetch = browserFetch(globalThis.fetch);
 */
export function browserFetch(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const sent = init?.method?.toUpperCase() === 'DELETE' ? { ...init, keepalive: true } : init;
    try {
      return await base(input, sent);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error; // an abort stays an abort
      throw new TypeError(`Failed to fetch: ${failedFetch({ online: online() }).message}`, { cause: error });
    }
  };
}
