import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hangGuard } from './hang-guard.ts';

const failure = (assertion: Promise<void>) => assertion.then(() => undefined, (error: Error) => error);

describe('a property\'s hang guard', () => {
  it('fails a property that reaches it, as "hung", never passes it on the runs it got to', async () => {
    // A run that never ends: whatever the machine's speed, the guard is what ends the property.
    const never = fc.asyncProperty(fc.nat(), (_: number) => new Promise<boolean>(() => {}));
    const error = await failure(fc.assert(never, { numRuns: 5, ...hangGuard<[number]>({ quietMs: 10, limitMs: 100 }) }));
    expect(error?.message).toMatch(/^hung: the property ran 0 run\(s\) in 0.1 s, its hang guard/);
  });

  it('leaves a counterexample found before it to fast-check\'s report, and a passing property passing', async () => {
    const time = { quietMs: 10, limitMs: 60_000 };
    const error = await failure(fc.assert(fc.asyncProperty(fc.nat(), async (n) => n < 5), { numRuns: 100, ...hangGuard<[number]>(time) }));
    expect(error?.message).toMatch(/^Property failed after \d+ tests/);
    await fc.assert(fc.asyncProperty(fc.nat(), async (_: number) => true), { numRuns: 10, ...hangGuard<[number]>(time) });
  });

  it('refuses a guard less than 10× the quiet time: it would be a verdict on the machine\'s speed', () => {
    expect(() => hangGuard({ quietMs: 5_000, limitMs: 40_000 })).toThrow(/not 10×/);
  });
});
