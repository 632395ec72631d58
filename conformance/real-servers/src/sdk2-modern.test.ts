import { describeRealServer } from './support/describe-real-server.ts';
import { SDK2_MODERN } from './support/servers.ts';

describeRealServer(SDK2_MODERN);
