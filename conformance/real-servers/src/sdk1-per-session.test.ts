import { describeRealServer } from './support/describe-real-server.ts';
import { SDK1_PER_SESSION } from './support/servers.ts';

describeRealServer(SDK1_PER_SESSION);
