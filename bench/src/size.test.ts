import { beforeAll, describe, expect, it } from 'vitest';
import { ADAPTER_BUDGET, ADAPTERS, measureSizes, SIZE_BUDGET, type SizeReport } from './size.ts';

describe('size budget (min+gzip, from the built packages)', () => {
  let sizes: SizeReport;
  beforeAll(async () => {
    sizes = await measureSizes();
  });

  it('core, the engine and the engine with core (what an application ships) stay within their budgets', () => {
    expect(sizes.core.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGET.core);
    expect(sizes.engine.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGET.engine);
    expect(sizes.engineWithCore.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGET.engineWithCore);
  });

  it('measures the engine without core: core is not in its bundle', () => {
    // With core left external the engine is smaller than with core, by at least half of core.
    expect(sizes.engineWithCore.gzipBytes - sizes.engine.gzipBytes).toBeGreaterThan(sizes.core.gzipBytes / 2);
  });

  it.each(ADAPTERS)('@mcp-resilience/%s stays within its budget, and holds none of the engine or core', (adapter) => {
    const { alone, withEngineAndCore } = sizes.adapters[adapter];
    expect(alone.gzipBytes).toBeLessThanOrEqual(ADAPTER_BUDGET[adapter]);
    // Measured alone, the engine is left out: with it, the bundle grows by at least half the engine.
    expect(withEngineAndCore.gzipBytes - alone.gzipBytes).toBeGreaterThan(sizes.engine.gzipBytes / 2);
  });
});
