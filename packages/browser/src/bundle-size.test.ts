import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** Our code in a page (adapter, engine, core), minified and gzipped; the SDK is the application's and counted apart. */
export const BUDGET_BYTES = 20 * 1024;

describe('the ESM bundle', () => {
  it(`stays within ${BUDGET_BYTES} bytes min+gzip, the SDK left out`, async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))], bundle: true, minify: true, format: 'esm', platform: 'browser',
      external: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'], write: false, logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.contents;
    expect(new TextDecoder().decode(code)).not.toMatch(/from ?["']node:/); // nothing of Node in a page
    const size = gzipSync(code).byteLength;
    console.log(`@mcp-resilience/browser: ${code.byteLength} B min, ${size} B min+gzip (budget ${BUDGET_BYTES})`);
    expect(size).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
