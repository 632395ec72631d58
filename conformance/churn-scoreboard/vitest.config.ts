import { packageTestConfig } from '../../vitest.shared.ts';

// scoreboard.test.ts runs `mcp-chaos check` on every client once, before the tests that read the reports.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 400_000 });
