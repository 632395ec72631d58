import { packageTestConfig } from '../../vitest.shared.ts';

// The runner's tests start mcp-chaos processes on 127.0.0.1 and stop them by PID.
export default packageTestConfig(import.meta.url, { testTimeout: 30_000, hookTimeout: 30_000 });
