import { packageTestConfig } from '../../vitest.shared.ts';

// Builds the Worker with wrangler, runs the Node sample and the Worker (Miniflare) through the
// whole corpus against one mcp-chaos process, before the tests that read the reports.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 300_000 });
