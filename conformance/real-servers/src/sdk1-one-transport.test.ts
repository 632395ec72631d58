import { describeRealServer } from './support/describe-real-server.ts';
import { SDK1_ONE_TRANSPORT } from './support/servers.ts';

describeRealServer(SDK1_ONE_TRANSPORT);
