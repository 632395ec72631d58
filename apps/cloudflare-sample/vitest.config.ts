import { packageTestConfig } from '../../vitest.shared.ts';

// sample.test.ts builds the Worker with wrangler and runs the Node sample and the Worker (Miniflare)
// through the whole corpus against one mcp-chaos process, before the tests that read the reports;
// wrangler-dev.test.ts runs one scenario through `wrangler dev`.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 300_000 });
