import type { AuthorizationServer } from './authorization-server.ts';
import type { MemoryOAuthClientProvider } from './memory-oauth-client-provider.ts';

/** A connected MCP client with OAuth, as the tests drive it. */
export interface AuthedClient {
  /** Calls the server's `echo` tool and returns the text of its result (`echo: <text>`). */
  echo(text: string): Promise<string>;
  close(): Promise<void>;
}

/** What a client flavour is connected with. */
export interface ConnectSetup {
  readonly url: string;
  /** The application's credentials: registered client, tokens, refresh bookkeeping. */
  readonly credentials: MemoryOAuthClientProvider;
  /** The authorization server (for an application that refreshes by itself). */
  readonly authorizationServer: AuthorizationServer;
  /** The transport's `fetch`: the engine, or the platform's for a plain client. */
  readonly fetch: typeof fetch;
}

/** One way an application builds an MCP client with OAuth (an SDK line and an auth provider kind). */
export interface ClientFlavour {
  /** E.g. `SDK 1.x Client + OAuthClientProvider`. */
  readonly name: string;
  connect(setup: ConnectSetup): Promise<AuthedClient>;
  /** Whether `error` is this SDK's own auth error (what the application should get when refresh is impossible). */
  isAuthError(error: unknown): boolean;
}

/**
 * The text of a `tools/call` result.
 *
 * @example
 * textOf({ content: [{ type: 'text', text: 'echo: hi' }] }); // 'echo: hi'
 */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type?: string; text?: string }[] }).content;
  const text = content?.find((c) => c.type === 'text')?.text;
  if (text === undefined) throw new Error(`no text in ${JSON.stringify(result)}`);
  return text;
}
