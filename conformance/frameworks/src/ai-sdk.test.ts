import { describeFramework } from './describe-framework.ts';

describeFramework('ai-sdk');
