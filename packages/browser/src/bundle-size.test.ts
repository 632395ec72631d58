import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/** Our code in a page (adapter, engine, core), minified and gzipped; the SDK is the application's and counted apart. */
export const BUDGET_BYTES = 25 * 1024; // 20 KiB until issue #20 kept each client's sessions apart and waited out restarts (22 KiB), then gave the engine one loop over one wire, the SDK 2.x middleware and the stored-session resume (22.7 KB measured); issue 36's exact requests (23,108 B) and stores that hold no secret and one identity, with a whole resumed client (24,341 B): 24 KiB; a cancelled call never sent again, first contact failing fast and a lineage whose state has one owner (24,675 B): 25 KiB; bringing it back down is issue 38's open work

/** The one-file ESM build the package ships for pages without a bundler (`npm run build` writes it). */
const BUNDLE = fileURLToPath(new URL('../dist/mcp-resilience-browser.js', import.meta.url));

describe('the ESM bundle the package ships', () => {
  it(`stays within ${BUDGET_BYTES} bytes min+gzip, and imports nothing but the SDK`, () => {
    expect(existsSync(BUNDLE), `${BUNDLE} is missing: the package was not built`).toBe(true);
    const code = readFileSync(BUNDLE);
    const text = code.toString('utf8');
    const imported = new Set([...text.matchAll(/(?:from ?|import\()["']([^"']+)["']/g)].map((m) => m[1]));
    expect([...imported].filter((specifier) => !specifier!.startsWith('@modelcontextprotocol/sdk/'))).toEqual([]); // nothing of Node, nothing unbundled
    const size = gzipSync(code, { level: 9 }).byteLength;
    console.log(`@mcp-resilience/browser: ${code.byteLength} B min, ${size} B min+gzip (budget ${BUDGET_BYTES})`);
    expect(size).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
