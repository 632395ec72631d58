import { AnsweredResponse } from './answered-response.ts';
import { readMessage } from './messages.ts';

/** What an `initialize` answer says of the session it opened. */
export interface InitializeAnswer {
  readonly revision: string;
  readonly capabilities: unknown;
  /** The `Mcp-Session-Id` as it goes on the wire (without surrounding whitespace); none when unreadable or not given. */
  readonly id: string | undefined;
  /** What the server said of itself (`serverInfo`, `instructions`), when it did. */
  readonly serverInfo?: Readonly<Record<string, unknown>>;
  readonly instructions?: string;
}

/**
 * Reads the revision, capabilities and session id off an `initialize` response, leaving it
 * readable (a clone is read; an event stream up to the answer only: it may stay open after it).
 * `undefined` when the response carried no `initialize` result.
 *
 * @example
 * const answer = await readInitializeAnswer(response);
 * if (answer) console.log(answer.revision); // '2025-11-25'
 */
export async function readInitializeAnswer(response: Response): Promise<InitializeAnswer | undefined> {
  const answer = response instanceof AnsweredResponse ? response.answer : await readMessage(response.clone(), (m) => 'result' in m);
  const result = answer?.result as { protocolVersion?: unknown; capabilities?: unknown; serverInfo?: unknown; instructions?: unknown } | undefined;
  if (typeof result?.protocolVersion !== 'string') return undefined;
  // As it goes on the wire: a value set on Headers loses its surrounding whitespace, one read off a response may not have.
  const id = response.headers.get('mcp-session-id')?.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  const { serverInfo, instructions } = result;
  return {
    revision: result.protocolVersion, capabilities: result.capabilities, id,
    ...(typeof serverInfo === 'object' && serverInfo !== null && !Array.isArray(serverInfo) ? { serverInfo: serverInfo as Record<string, unknown> } : {}),
    ...(typeof instructions === 'string' ? { instructions } : {}),
  };
}
