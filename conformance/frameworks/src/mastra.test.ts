import { describeFramework } from './describe-framework.ts';

describeFramework('mastra');
