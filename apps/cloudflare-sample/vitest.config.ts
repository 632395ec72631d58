import { packageTestConfig } from '../../vitest.shared.ts';

// sample.test.ts builds the Worker with wrangler and starts it in Miniflare before its tests;
// wrangler-dev.test.ts runs one scenario through `wrangler dev`.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 300_000 });
