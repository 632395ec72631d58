import { describeRealServer } from './support/describe-real-server.ts';
import { HONO_MCP } from './support/servers.ts';

describeRealServer(HONO_MCP);
