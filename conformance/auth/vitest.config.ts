import { packageTestConfig } from '../../vitest.shared.ts';

// Each file starts its authorization server and MCP servers in-process on 127.0.0.1 (workerd, for
// the Workers file, as a child process) and closes them after its tests. The files share one module
// graph per worker (the SDKs imported once, not once per file): none mocks a module or stubs a global.
export default packageTestConfig(import.meta.url, { testTimeout: 30_000, hookTimeout: 90_000, maxWorkers: 2, isolate: false });
