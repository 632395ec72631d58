import { describeRealServer } from './support/describe-real-server.ts';
import { MCP_FRAMEWORK } from './support/servers.ts';

describeRealServer(MCP_FRAMEWORK);
