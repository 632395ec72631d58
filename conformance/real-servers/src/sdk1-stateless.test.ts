import { describeRealServer } from './support/describe-real-server.ts';
import { SDK1_STATELESS } from './support/servers.ts';

describeRealServer(SDK1_STATELESS);
