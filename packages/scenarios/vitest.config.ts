import { packageTestConfig } from '../../vitest.shared.ts';

// The runner's tests start mcp-chaos processes on 127.0.0.1 and stop them by PID. No file mocks a
// module, stubs a global or fakes timers, so the files share one module graph per worker (8 s of
// CPU instead of 13).
export default packageTestConfig(import.meta.url, { testTimeout: 30_000, hookTimeout: 30_000, isolate: false });
