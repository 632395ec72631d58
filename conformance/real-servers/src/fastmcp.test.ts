import { describeRealServer } from './support/describe-real-server.ts';
import { FASTMCP } from './support/servers.ts';

describeRealServer(FASTMCP);
