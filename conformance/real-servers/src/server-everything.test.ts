import { describeRealServer } from './support/describe-real-server.ts';
import { SERVER_EVERYTHING } from './support/servers.ts';

describeRealServer(SERVER_EVERYTHING);
