import { describe, expect, it } from 'vitest';
import { measureSizes, SIZE_BUDGET } from './size.ts';

describe('size budget (min+gzip, from the built packages)', () => {
  it('core and the engine stay within their budgets', async () => {
    const sizes = await measureSizes();
    expect(sizes.core.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGET.core);
    expect(sizes.engine.gzipBytes).toBeLessThanOrEqual(SIZE_BUDGET.engine);
  });

  it('measures the engine without core: core is not in its bundle', async () => {
    const sizes = await measureSizes();
    // With core left external the engine is smaller than with core, by at least half of core.
    expect(sizes.engineWithCore.gzipBytes - sizes.engine.gzipBytes).toBeGreaterThan(sizes.core.gzipBytes / 2);
  });
});
