#!/usr/bin/env node
// The `mcp-chaos` command. This file exists before the package is built, so that installing a
// workspace that depends on it can link the command; it runs the built CLI.
try {
  await import('../dist/cli.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('cli.js')) {
    process.stderr.write('mcp-chaos: not built yet: run `pnpm build` first\n');
    process.exit(1);
  }
  throw error;
}
