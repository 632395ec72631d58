import { isolatedOnly, packageTestConfig } from '../../vitest.shared.ts';

// Tests start chaos servers on 127.0.0.1 and stop them. Only the file that mocks the SDK
// (vi.mock) loads the engine afresh; every other file shares one module graph per worker instead
// of importing the SDK and the engine again for each: none mocks a module, stubs a global or fakes
// timers (a spy is restored after its test, process listeners are removed after their run), and
// the engine's one piece of module state is a counter of internal ids that no test reads.
export default packageTestConfig(import.meta.url, {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  maxWorkers: 2,
  ...isolatedOnly(['src/connect-peer-missing.test.ts']),
});
