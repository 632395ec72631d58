import { packageTestConfig } from '../../vitest.shared.ts';

// Each test file starts its own servers on 127.0.0.1 and stops them by PID or handle.
export default packageTestConfig(import.meta.url, { testTimeout: 20_000, hookTimeout: 30_000 });
