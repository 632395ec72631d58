import { isRecord } from './values.ts';

/**
 * What a session negotiated: its revision and the server's capabilities.
 *
 * @example
 * const before: Negotiated = { revision: '2025-11-25', capabilities: { tools: {} } };
 * sessionChange(before, { revision: '2025-11-25', capabilities: {} }) // { capabilities: ['tools'] }
 */
export interface Negotiated {
  readonly revision: string;
  readonly capabilities?: unknown;
}

/**
 * How a replacement session differs from the one it replaced.
 *
 * @example
 * const change: SessionChange | undefined = sessionChange(before, after);
 * if (change) throw new ResilienceError({ code: 'SESSION_CHANGED', message: 'The new session differs', details: { ...change } });
 */
export interface SessionChange {
  readonly revision?: { readonly from: string; readonly to: string };
  /** Top-level capability names added, removed or changed. */
  readonly capabilities: readonly string[];
}

/**
 * The value as JSON with every object's keys sorted, so that values equal but for key order read
 * the same. Capabilities arrive as JSON, which is all this needs to handle.
 */
function canonical(value: unknown): string | undefined {
  return JSON.stringify(value, (_, v: unknown) => (isRecord(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

/**
 * How a new session differs from the old one, or `undefined` when it negotiated the same
 * revision and capabilities. A call replayed on a changed session could mean something else,
 * so the engine reports the change and fails safe.
 *
 * @example
 * sessionChange({ revision: '2025-11-25', capabilities: { tools: {} } },
 *               { revision: '2025-06-18', capabilities: {} })
 * // { revision: { from: '2025-11-25', to: '2025-06-18' }, capabilities: ['tools'] }
 */
export function sessionChange(before: Negotiated, after: Negotiated): SessionChange | undefined {
  const a = isRecord(before.capabilities) ? before.capabilities : {};
  const b = isRecord(after.capabilities) ? after.capabilities : {};
  const names = Object.keys({ ...a, ...b }).sort(); // each name once
  const capabilities = names.filter((name) => canonical(a[name]) !== canonical(b[name]));
  const revisionChanged = before.revision !== after.revision;
  if (!revisionChanged && capabilities.length === 0) return undefined;
  return { ...(revisionChanged ? { revision: { from: before.revision, to: after.revision } } : {}), capabilities };
}
