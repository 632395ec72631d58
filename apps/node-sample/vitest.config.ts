import { packageTestConfig } from '../../vitest.shared.ts';

// The corpus runs twice through the built main against an mcp-chaos process, before the tests
// that read its report: one scenario after another, each on a fresh server of the pool.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 180_000 });
