import { describeIdle } from './support/describe-idle.ts';
import { describeRealServer } from './support/describe-real-server.ts';
import { mcpProxy } from './support/servers.ts';

describeRealServer(mcpProxy());

/**
 * mcp-proxy is the server of the suite with a session-timeout setting (`--sessionIdleTimeout`),
 * on real time: long enough that no step of a busy machine (a recovery's initialize and replay, an
 * SDK opening its GET stream) outlasts it, as the server check's scoreboard has it.
 */
const IDLE_MS = 3_000;
/** What mcp-proxy 6.7.19 prints on stdout when it expires a session: `[mcp-proxy] closing session <id>, idle for over 3000ms`. */
const expired = (sessionId: string) => new RegExp(`^\\[mcp-proxy\\] closing session ${sessionId}, idle for over`);
describeIdle(mcpProxy(IDLE_MS), IDLE_MS, expired);
