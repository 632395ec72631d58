import { describeRealServer } from './support/describe-real-server.ts';
import { FASTMCP_STATELESS } from './support/servers.ts';

describeRealServer(FASTMCP_STATELESS);
