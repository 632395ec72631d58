import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { packageTestConfig } from '../../vitest.shared.ts';

// The tests run inside workerd (no nodejs_compat), against mcp-chaos processes the Node side
// starts in globalSetup and stops by PID; their addresses come in through provide/inject.
const config = packageTestConfig(import.meta.url, {
  globalSetup: ['./src/test-support/global-setup.ts'],
  // The first Worker request loads the Worker's modules through vite's module runner: slow on
  // a loaded machine (the whole suite runs at once), never a hang of the engine.
  testTimeout: 120_000,
  hookTimeout: 60_000,
});

export default {
  ...config,
  plugins: [cloudflareTest({
    main: './src/test-support/worker.ts',
    miniflare: {
      compatibilityDate: '2026-04-20',
      durableObjects: { MCP_SESSIONS: { className: 'McpSessionStore', useSQLite: true } },
    },
  })],
};
