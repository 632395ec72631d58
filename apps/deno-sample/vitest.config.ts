import { packageTestConfig } from '../../vitest.shared.ts';

// The Node sample and then the Deno sample run the whole corpus against one mcp-chaos process
// before the tests that read their reports.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 240_000 });
