import { ResilienceError } from '@mcp-resilience/core';

/**
 * The part of the `Deno` namespace this adapter uses, declared here so the package builds with
 * `tsc` for npm as well as with Deno for JSR, and needs no unstable type flag for KV.
 */
export interface DenoApi {
  unrefTimer(id: number): void;
  readonly errors: { readonly PermissionDenied: abstract new (...args: never[]) => Error; readonly NotCapable?: abstract new (...args: never[]) => Error };
  readonly stderr: { writeSync(bytes: Uint8Array): number };
  /** Present with `--unstable-kv` (or `"unstable": ["kv"]`) and on Deno Deploy. */
  readonly openKv?: (path?: string) => Promise<DenoKv>;
}

/** The subset of `Deno.Kv` the session store uses. */
export interface DenoKv {
  get<T>(key: readonly (string | number)[]): Promise<{ readonly value: T | null }>;
  set(key: readonly (string | number)[], value: unknown): Promise<unknown>;
  delete(key: readonly (string | number)[]): Promise<void>;
  /** Present on `Deno.Kv`: the store uses it to drop what an older version kept under a URL. */
  list?(selector: { readonly prefix: readonly (string | number)[] }): AsyncIterable<{ readonly key: readonly unknown[] }>;
  close(): void;
}

/**
 * The `Deno` namespace of the running process.
 *
 * @example
 * denoApi().unrefTimer(setTimeout(run, 1_000));
 */
export function denoApi(): DenoApi {
  const api = (globalThis as { Deno?: DenoApi }).Deno;
  if (!api) {
    throw new ResilienceError({
      code: 'RUNTIME_UNSUPPORTED', details: { needs: 'Deno' },
      message: '@mcp-resilience/deno runs on Deno only: use @mcp-resilience/node or @mcp-resilience/client elsewhere',
    });
  }
  return api;
}
