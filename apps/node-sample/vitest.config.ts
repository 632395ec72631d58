import { packageTestConfig } from '../../vitest.shared.ts';

// Every conformance scenario runs against a real chaos server on 127.0.0.1, one after another.
export default packageTestConfig(import.meta.url, { testTimeout: 30_000, hookTimeout: 30_000 });
