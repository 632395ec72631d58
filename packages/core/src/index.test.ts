import { describe, expect, it } from 'vitest';
import * as core from './index.ts';

describe('the public surface of @mcp-resilience/core', () => {
  it('names its exports one by one: internal helpers are not API', () => {
    const names = Object.keys(core);
    for (const internal of ['readRpcError', 'dataField', 'unitRandom', 'isRecord', 'isNonNegative', 'isCount', 'clamp', 'checkedOptions', 'atLeast', 'COUNT']) {
      expect(names).not.toContain(internal);
    }
    for (const api of ['classify', 'decide', 'advance', 'diagnoseLoss', 'lossReport', 'normalizeTrace', 'isReplaySafe', 'ResilienceError', 'adoptSession']) {
      expect(names).toContain(api);
    }
  });
});
