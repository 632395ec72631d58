import { packageTestConfig } from '../../vitest.shared.ts';

// Tests start chaos servers on 127.0.0.1 and stop them, and spawn node on the built package. The files
// share one module graph per worker (the SDK imported once, not once per file): none mocks a module or stubs a global.
export default packageTestConfig(import.meta.url, { testTimeout: 30_000, hookTimeout: 30_000, isolate: false });
