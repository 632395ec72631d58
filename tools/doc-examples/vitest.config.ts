import { packageTestConfig } from '../../vitest.shared.ts';

// Each example is a node process against an mcp-chaos of its own; a hang is capped inside the test.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 30_000 });
