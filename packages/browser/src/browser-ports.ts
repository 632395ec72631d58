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

/** Marks an error of {@link browserFetch} whose request never left: the browser was offline from its start. */
const NOT_SENT: unique symbol = Symbol.for('mcp-resilience.browser.not-sent');

/**
 * Whether a failed fetch provably sent nothing: {@link browserFetch} found the browser offline
 * before it called `fetch`, and still offline when it failed (a browser reads every other
 * failure alike, `TypeError: Failed to fetch`). Offline read only after the failure is no proof:
 * the device may have lost its network after the request left, so that is "maybe sent", as is
 * any error that did not come through {@link browserFetch}.
 *
 * @example
 * const ports = { notSent: offlineNotSent, fetch: browserFetch(globalThis.fetch) };
 */
export const offlineNotSent = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { [NOT_SENT]?: unknown })[NOT_SENT] === true;

/** Watches, from before a request starts, whether the browser was offline then and came online since. */
function watchOnline(): () => { offlineAtStart: boolean; online: boolean } {
  const offlineAtStart = !online();
  if (!offlineAtStart) return () => ({ offlineAtStart, online: online() }); // the healthy path: nothing to listen to
  let cameOnline = false;
  const onOnline = () => (cameOnline = true);
  globalThis.addEventListener?.('online', onOnline);
  return () => {
    globalThis.removeEventListener?.('online', onOnline);
    return { offlineAtStart, online: cameOnline || online() };
  };
}

/** Whether the browser hides headers of answers from `url`: a cross-origin endpoint, read under CORS. */
export const corsHidesHeaders = (url: string): boolean => {
  const here = globalThis.location?.origin;
  return here !== undefined && new URL(url, globalThis.location.href).origin !== here;
};

/**
 * The browser's `fetch` as the engine uses it: every DELETE is `keepalive` (it outlives the
 * page that sent it), and a fetch that failed without an answer says what the browser can tell
 * of it ("blocked or unreachable (CORS, network)", "offline: not sent", or "offline since the
 * request started: maybe sent"), the browser's own error as `cause`. Whether the browser was
 * offline is read before `fetch` is called: only a request that started offline, and failed
 * before the browser came online, is marked as never sent ({@link offlineNotSent}).
 *
 * @example
 * const fetch = browserFetch(globalThis.fetch);
 */
export function browserFetch(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const sent = init?.method?.toUpperCase() === 'DELETE' ? { ...init, keepalive: true } : init;
    const network = watchOnline();
    try {
      return await base(input, sent);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error; // an abort stays an abort
      const failed = failedFetch(network());
      const told = new TypeError(`Failed to fetch: ${failed.message}`, { cause: error });
      if (failed.notSent) Object.defineProperty(told, NOT_SENT, { value: true });
      throw told;
    } finally {
      network(); // no listener outlives the request
    }
  };
}
