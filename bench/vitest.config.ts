import { packageTestConfig } from '../vitest.shared.ts';

// Tests run the benchmark and soak commands as processes against chaos servers on 127.0.0.1.
export default packageTestConfig(import.meta.url, { testTimeout: 120_000, hookTimeout: 30_000 });
