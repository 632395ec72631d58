import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolCall } from './sdk-clients.ts';
import type { Launch } from './server-process.ts';

/** conformance/real-servers/ */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FORCE_LOOPBACK = join(ROOT, 'dist/servers/force-loopback.js');

/** How a server keeps sessions, which decides what the suite puts it through. */
export type SessionModel =
  /** A transport per session (a map keyed by session id): any number of sessions. */
  | 'per-session'
  /** One transport for the whole process: one session per process life, a second `initialize` is refused. */
  | 'one-per-process'
  /** No sessions on 2025-era revisions: nothing to lose. */
  | 'stateless'
  /** 2026-07-28: no sessions and no `initialize` at all. */
  | 'modern';

/** One real server of the suite: what it is, the version pinned, how it is wired and started. */
export interface RealServer {
  /** Names its fixture row and its test file. */
  readonly id: string;
  /** The npm package whose behaviour is measured, and the exact version pinned. */
  readonly package: string;
  readonly version: string;
  /** Where that package is installed (its `package.json` is checked against {@link RealServer.version}). */
  readonly packageDir: string;
  /** How it is wired, in the words of its documentation. */
  readonly wiring: string;
  readonly sessions: SessionModel;
  readonly launch: Launch;
  /** The tool call the suite makes, and the text the server answers it with. */
  readonly tool: (text: string) => ToolCall;
  readonly answer: (text: string) => string;
}

function installed(packageName: string, project = ROOT): string {
  return join(project, 'node_modules', packageName);
}

/**
 * The version of a server's package as installed, read from its `package.json`.
 *
 * @example
 * installedVersion(SERVER_EVERYTHING) // '2026.8.31'
 */
export function installedVersion(server: RealServer): string {
  return (JSON.parse(readFileSync(join(server.packageDir, 'package.json'), 'utf8')) as { version: string }).version;
}

const port = (p: number) => ({ PORT: String(p) });
const entry = (name: string) => join(ROOT, 'dist/servers', `${name}.js`);
const echo = (text: string): ToolCall => ({ name: 'echo', arguments: { message: text } });
const same = (text: string) => text;
const EVERYTHING = join(installed('@modelcontextprotocol/server-everything'), 'dist/index.js');

export const SERVER_EVERYTHING: RealServer = {
  id: 'server-everything',
  package: '@modelcontextprotocol/server-everything',
  version: '2026.8.31',
  packageDir: installed('@modelcontextprotocol/server-everything'),
  wiring: '`PORT=N mcp-server-everything streamableHttp` (transport per session; binds all interfaces, so a preload forces 127.0.0.1)',
  sessions: 'per-session',
  launch: { args: () => ['--import', FORCE_LOOPBACK, EVERYTHING, 'streamableHttp'], env: port },
  tool: echo,
  answer: (text) => `Echo: ${text}`,
};

export const SDK1_PER_SESSION: RealServer = {
  id: 'sdk1-per-session',
  package: '@modelcontextprotocol/sdk',
  version: '1.32.2',
  packageDir: installed('@modelcontextprotocol/sdk'),
  wiring: 'the SDK\'s own shipped example `dist/esm/examples/server/simpleStreamableHttp.js`, run as is (`MCP_PORT=N`): a transport per session in a map, unknown id → 404',
  sessions: 'per-session',
  launch: {
    args: () => ['--import', FORCE_LOOPBACK, join(installed('@modelcontextprotocol/sdk'), 'dist/esm/examples/server/simpleStreamableHttp.js')],
    env: (p) => ({ MCP_PORT: String(p) }),
  },
  tool: (text) => ({ name: 'greet', arguments: { name: text } }),
  answer: (text) => `Hello, ${text}!`,
};

export const SDK1_ONE_TRANSPORT: RealServer = {
  id: 'sdk1-one-transport',
  package: '@modelcontextprotocol/sdk',
  version: '1.32.2',
  packageDir: installed('@modelcontextprotocol/sdk'),
  wiring: 'one `StreamableHTTPServerTransport({ sessionIdGenerator })` for the whole process, connected once, `app.all(\'/mcp\')` (`src/servers/sdk1-one-transport.ts`)',
  sessions: 'one-per-process',
  launch: { args: () => [entry('sdk1-one-transport')], env: port },
  tool: echo,
  answer: same,
};

export const SDK1_STATELESS: RealServer = {
  id: 'sdk1-stateless',
  package: '@modelcontextprotocol/sdk',
  version: '1.32.2',
  packageDir: installed('@modelcontextprotocol/sdk'),
  wiring: 'stateless as the SDK\'s `simpleStatelessStreamableHttp` example: server + transport (`sessionIdGenerator: undefined`) per POST, GET/DELETE 405 (`src/servers/sdk1-stateless.ts`)',
  sessions: 'stateless',
  launch: { args: () => [entry('sdk1-stateless')], env: port },
  tool: echo,
  answer: same,
};

export const SDK2_SESSIONFUL: RealServer = {
  id: 'sdk2-sessionful',
  package: '@modelcontextprotocol/server',
  version: '2.4.0',
  packageDir: installed('@modelcontextprotocol/server'),
  wiring: 'the guide "Sessions, state, and scaling": `NodeStreamableHTTPServerTransport` (`@modelcontextprotocol/node` 2.1.2) per session in a map, Express from `@modelcontextprotocol/express` 2.0.2 (`src/servers/sdk2-sessionful.ts`)',
  sessions: 'per-session',
  launch: { args: () => [entry('sdk2-sessionful')], env: port },
  tool: echo,
  answer: same,
};

export const SDK2_MODERN: RealServer = {
  id: 'sdk2-modern',
  package: '@modelcontextprotocol/server',
  version: '2.4.0',
  packageDir: installed('@modelcontextprotocol/server'),
  wiring: 'the guide "Serve with Express": `toNodeHandler(createMcpHandler(factory))` — 2026-07-28 per request, 2025-era through its stateless fallback (`src/servers/sdk2-modern.ts`)',
  sessions: 'modern',
  launch: { args: () => [entry('sdk2-modern')], env: port },
  tool: echo,
  answer: same,
};

export const FASTMCP: RealServer = {
  id: 'fastmcp',
  package: 'fastmcp',
  version: '4.20.16',
  packageDir: installed('fastmcp'),
  wiring: '`server.start({ transportType: \'httpStream\', httpStream: { port, host: \'127.0.0.1\' } })` (its HTTP server is mcp-proxy\'s `startHTTPServer`)',
  sessions: 'per-session',
  launch: { args: () => [entry('fastmcp-server')], env: port },
  tool: echo,
  answer: same,
};

export const FASTMCP_STATELESS: RealServer = {
  ...FASTMCP,
  id: 'fastmcp-stateless',
  wiring: 'as fastmcp, with its documented `httpStream.stateless: true`',
  sessions: 'stateless',
  launch: { args: () => [entry('fastmcp-server')], env: (p) => ({ PORT: String(p), FASTMCP_STATELESS: 'true' }) },
};

/** mcp-proxy in front of server-everything over stdio; `idleMs` sets its `--sessionIdleTimeout`. */
export function mcpProxy(idleMs?: number): RealServer {
  return {
    id: idleMs === undefined ? 'mcp-proxy' : 'mcp-proxy-idle',
    package: 'mcp-proxy',
    version: '6.7.19',
    packageDir: installed('mcp-proxy'),
    wiring: `\`mcp-proxy --host 127.0.0.1 --port N --server stream${idleMs === undefined ? '' : ` --sessionIdleTimeout ${idleMs}`} -- node mcp-server-everything stdio\``,
    sessions: 'per-session',
    launch: {
      args: (p) => [
        join(installed('mcp-proxy'), 'dist/bin/mcp-proxy.mjs'), '--host', '127.0.0.1', '--port', String(p), '--server', 'stream',
        ...(idleMs === undefined ? [] : ['--sessionIdleTimeout', String(idleMs)]),
        '--', process.execPath, EVERYTHING, 'stdio',
      ],
    },
    tool: echo,
    answer: (text) => `Echo: ${text}`,
  };
}

export const HONO_MCP: RealServer = {
  id: 'hono-mcp',
  package: '@hono/mcp',
  version: '0.3.2',
  packageDir: installed('@hono/mcp'),
  wiring: 'its README: one `StreamableHTTPTransport()` (no options) for the process, connected on the first request, on `@hono/node-server` (`src/servers/hono-mcp.ts`)',
  sessions: 'stateless',
  launch: { args: () => [entry('hono-mcp')], env: port },
  tool: echo,
  answer: same,
};

export const HONO_MCP_SESSIONS: RealServer = {
  ...HONO_MCP,
  id: 'hono-mcp-sessions',
  wiring: 'its README\'s wiring with the SDK option it says it accepts: `StreamableHTTPTransport({ sessionIdGenerator })` — one transport for the process',
  sessions: 'one-per-process',
  launch: { args: () => [entry('hono-mcp')], env: (p) => ({ PORT: String(p), HONO_MCP_SESSIONS: 'true' }) },
};

const MCP_FRAMEWORK_PROJECT = join(ROOT, 'projects/mcp-framework');

export const MCP_FRAMEWORK: RealServer = {
  id: 'mcp-framework',
  package: 'mcp-framework',
  version: '0.2.22',
  packageDir: installed('mcp-framework', MCP_FRAMEWORK_PROJECT),
  wiring: '`new MCPServer({ transport: { type: \'http-stream\', options: { port, endpoint: \'/mcp\' } } })` (binds 127.0.0.1 by default; `projects/mcp-framework/server.js`, zod 3)',
  sessions: 'per-session',
  launch: { args: () => [join(MCP_FRAMEWORK_PROJECT, 'server.js')], env: port },
  tool: echo,
  // It writes a tool's return value as JSON text: the string "hi" comes back as `"hi"`.
  answer: (text) => JSON.stringify(text),
};
