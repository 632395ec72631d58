import { describeFramework } from './describe-framework.ts';

describeFramework('openai-agents');
