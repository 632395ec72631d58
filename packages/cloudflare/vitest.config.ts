import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { packageTestConfig } from '../../vitest.shared.ts';

// The tests run inside workerd (no nodejs_compat), against mcp-chaos processes the Node side
// starts in globalSetup and stops by PID; their addresses come in through provide/inject.
const config = packageTestConfig(import.meta.url, {
  globalSetup: ['./src/test-support/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 30_000,
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
