import { defined } from './defined.ts';
import { isRecord } from './values.ts';

/** The error member of a JSON-RPC error response, as far as it could be read. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

function errorOf(message: unknown): RpcError | undefined {
  if (!isRecord(message) || !isRecord(message.error)) return undefined;
  const { code, message: text, data } = message.error;
  if (!Number.isInteger(code)) return undefined; // a number, too
  return defined({ code: code as number, message: typeof text === 'string' ? text : '', data });
}

/**
 * Reads the JSON-RPC error out of a response body given as text or as parsed JSON: a single
 * error response, or the first error in a batch. Anything else (malformed JSON, an HTML page,
 * a success, a non-integer code) reads as `undefined`; this never throws.
 */
export function readRpcError(body: unknown): RpcError | undefined {
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  return [parsed].flat().map(errorOf).find((error) => error);
}

/** A field of an error's `data` object, when `data` is an object; garbage reads as `undefined`. */
export function dataField(error: RpcError | undefined, name: string): unknown {
  return isRecord(error?.data) ? error.data[name] : undefined;
}
