import { packageTestConfig } from '../../vitest.shared.ts';

// The end-to-end test starts mcp-chaos on 127.0.0.1 and stops it by its handle.
export default packageTestConfig(import.meta.url, { testTimeout: 15_000, hookTimeout: 15_000 });
