import { packageTestConfig } from '../../vitest.shared.ts';

// The end-to-end test starts mcp-chaos on 127.0.0.1 and stops it by its handle. The files share one
// module graph per worker (a fresh process per file: 7.8 s of CPU, not 5.0): none mocks a module or stubs a
// global, and a file that installs OpenTelemetry's globals removes them after its tests (test-support/otel-sdk.ts).
export default packageTestConfig(import.meta.url, { testTimeout: 15_000, hookTimeout: 15_000, isolate: false });
