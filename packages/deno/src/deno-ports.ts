import type { Blocked } from '@mcp-resilience/core';
import { deadlineWith, sleepWith, type Deadline, type Sleep } from '@mcp-resilience/client/adapter';
import { denoApi } from './deno-api.ts';

/** A timer that does not keep Deno's event loop alive (`Deno.unrefTimer`). */
function unrefTimeout(run: () => void, ms: number): number {
  const id = setTimeout(run, ms) as unknown as number; // a number in Deno (and the DOM); `Timeout` only where Node types are loaded
  denoApi().unrefTimer(id);
  return id;
}

/**
 * The engine's wait on Deno: an unref'd timer, so a pending backoff never keeps the process
 * alive, ending early (rejecting with the signal's reason) when `signal` aborts.
 *
 * @example
 * await denoSleep(1_000, controller.signal); // does not hold the process open
 */
export const denoSleep: Sleep = sleepWith(unrefTimeout, clearTimeout);

/**
 * The deadline of the engine's own requests on Deno, on an unref'd timer.
 *
 * @example
 * await denoDeadline(20_000, (signal) => fetch(url, { signal }));
 */
export const denoDeadline: Deadline = deadlineWith(unrefTimeout, clearTimeout);

const REFUSED = /tcp connect error: Connection refused/;
const NEEDS_NET = /Requires net access to "([^"]+)"/;

/**
 * What a failed fetch on Deno sent, as Deno says it: a refused connection
 * (`tcp connect error: Connection refused (os error 111)`) sent nothing, so `true`; a
 * permission failure (`NotCapable` without a grant, `PermissionDenied` when refused at a
 * prompt) sent nothing and will fail again, so a {@link Blocked} naming the flag it needs.
 * Anything else may have reached the server: `false`.
 *
 * @example
 * await fetch('https://example.com/').catch(denoNotSent) // { blocked: true, needs: '--allow-net=example.com:443' } without the permission
 */
export function denoNotSent(error: unknown): boolean | Blocked {
  const { errors } = denoApi();
  if (error instanceof errors.PermissionDenied || (errors.NotCapable && error instanceof errors.NotCapable)) {
    const host = NEEDS_NET.exec(error.message)?.[1];
    return { blocked: true, needs: host ? `--allow-net=${host}` : `a permission Deno refused (${error.message})` };
  }
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return [error, cause].some((e) => e instanceof Error && REFUSED.test(e.message));
}

const encoder = new TextEncoder();

/** Where `log: true` writes on Deno: stderr, one line per event. */
export const writeStderrLine = (line: string): void => void denoApi().stderr.writeSync(encoder.encode(`${line}\n`));
