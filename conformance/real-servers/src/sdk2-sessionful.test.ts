import { describeRealServer } from './support/describe-real-server.ts';
import { SDK2_SESSIONFUL } from './support/servers.ts';

describeRealServer(SDK2_SESSIONFUL);
