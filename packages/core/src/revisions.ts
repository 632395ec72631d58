/** The eras of MCP over HTTP: before Streamable HTTP, sessionful Streamable HTTP, sessionless. */
export type Era = 'pre-streamable' | 'sessionful' | 'modern';

/**
 * How a revision has tasks: `none`; `core`, the experimental tasks of 2025-11-25 (the client
 * asks for one with `params.task`, then `tasks/get`, `tasks/result`, `tasks/list`,
 * `tasks/cancel`); `extension`, 2026-07-28's `io.modelcontextprotocol/tasks` extension (the
 * server decides, `tasks/result` and `tasks/list` are gone, `tasks/get` carries the result).
 */
export type TaskSupport = 'none' | 'core' | 'extension';

/** What one protocol revision offers on the HTTP transport. */
export interface RevisionTraits {
  readonly revision: string;
  readonly era: Era;
  /** `Mcp-Session-Id` exists: session loss and re-initialization apply. */
  readonly sessions: boolean;
  /** A standalone GET stream for server-initiated messages. */
  readonly getStream: boolean;
  /** A broken response stream can be resumed with GET + `Last-Event-ID`. */
  readonly resumable: boolean;
  /** The server's SSE `retry` field binds the client. */
  readonly retryField: boolean;
  /** `MCP-Protocol-Version` is sent on every request after initialization. */
  readonly versionHeader: boolean;
  /** The connection starts with `initialize` (else every request carries `_meta`). */
  readonly initialize: boolean;
  readonly tasks: TaskSupport;
  /** False when the revision is not in the table and was placed by its date. */
  readonly known: boolean;
}

type Traits = Omit<RevisionTraits, 'revision' | 'known'>;

const PRE_STREAMABLE: Traits = {
  era: 'pre-streamable', sessions: false, getStream: false, resumable: false,
  retryField: false, versionHeader: false, initialize: true, tasks: 'none',
};
const SESSIONFUL: Traits = {
  era: 'sessionful', sessions: true, getStream: true, resumable: true,
  retryField: false, versionHeader: true, initialize: true, tasks: 'none',
};
const MODERN: Traits = {
  era: 'modern', sessions: false, getStream: false, resumable: false,
  retryField: false, versionHeader: true, initialize: false, tasks: 'extension',
};

const TABLE: Readonly<Record<string, Traits>> = {
  '2024-11-05': PRE_STREAMABLE,
  '2025-03-26': { ...SESSIONFUL, versionHeader: false },
  '2025-06-18': SESSIONFUL,
  '2025-11-25': { ...SESSIONFUL, retryField: true, tasks: 'core' },
  '2026-07-28': MODERN,
};

/**
 * The revisions this table knows, oldest first.
 *
 * @example
 * KNOWN_REVISIONS // ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']
 */
export const KNOWN_REVISIONS: readonly string[] = Object.keys(TABLE);

/**
 * The revision a server assumes when a client sends no `MCP-Protocol-Version`
 * (2025-06-18 transport rules); used here for a missing or malformed revision.
 */
export const DEFAULT_REVISION = '2025-03-26';

const DATED = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Traits of a protocol revision. An unknown dated revision is placed by era
 * (before 2025-03-26: pre-streamable; from 2026-07-28: modern; between: sessionful, with the
 * traits of the newest sessionful revision) and flagged `known: false`. Surrounding white
 * space is ignored. A missing or malformed revision gets the traits of
 * {@link DEFAULT_REVISION} (what a server assumes without the header), also flagged.
 *
 * @example
 * revisionTraits('2025-11-25').sessions // true
 * revisionTraits('2026-07-28').sessions // false
 * revisionTraits('2027-01-01')          // { era: 'modern', known: false, ... }
 */
export function revisionTraits(raw: string | undefined): RevisionTraits {
  const revision = raw?.trim() ?? '';
  const known = KNOWN_REVISIONS.includes(revision);
  const traits = known
    ? TABLE[revision]!
    : !DATED.test(revision)
      ? TABLE[DEFAULT_REVISION]!
      : revision < '2025-03-26' ? PRE_STREAMABLE : revision >= '2026-07-28' ? MODERN : TABLE['2025-11-25']!;
  return { revision: revision || DEFAULT_REVISION, known, ...traits };
}

/**
 * Whether session logic (loss detection, re-initialization, resumption of a session's
 * streams) may run on a connection that negotiated this revision.
 *
 * @example
 * isSessionful('2025-06-18') // true
 * isSessionful('2026-07-28') // false
 */
export function isSessionful(revision: string | undefined): boolean {
  return revisionTraits(revision).sessions;
}
