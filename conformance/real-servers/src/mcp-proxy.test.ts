import { describeIdle } from './support/describe-idle.ts';
import { describeRealServer } from './support/describe-real-server.ts';
import { mcpProxy } from './support/servers.ts';

describeRealServer(mcpProxy());

/** mcp-proxy is the server of the suite with a session-timeout setting (`--sessionIdleTimeout`). */
const IDLE_MS = 300;
describeIdle(mcpProxy(IDLE_MS), IDLE_MS);
