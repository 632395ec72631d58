import type { Backend, BackendContext } from './backend.ts';
import type { ChaosServerOptions } from './chaos-options.ts';
import { createLegacyBackend } from './legacy-backend.ts';
import { createModernBackend } from './modern-backend.ts';
import { createProxyBackend } from './proxy-backend.ts';

/**
 * The backend the options ask for: a proxy to `upstream`, the 2026-07-28 server (`modern`), or
 * the sessionful one (`legacy`, the default), told of every session it opens.
 *
 * @example
 * const backend = chooseBackend({ mode: 'modern' }, { ledger, resource, tasks, clock, onSessionStarted });
 * backend.mode // 'modern'
 */
export function chooseBackend(options: ChaosServerOptions, context: BackendContext & { onSessionStarted(id: string): void }): Backend {
  if (options.upstream !== undefined) return createProxyBackend(options.upstream, context.onSessionStarted);
  return options.mode === 'modern' ? createModernBackend(context) : createLegacyBackend({ ...context, jsonResponses: options.jsonResponses === true });
}
