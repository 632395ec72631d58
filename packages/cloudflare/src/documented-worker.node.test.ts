// Node side, the Worker in workerd (Miniflare): the README's ten-line Worker and its
// wrangler.jsonc, taken from the README as written (only the server's URL is swapped for a
// local mcp-chaos), bundled with the README's aliases against the built package, and run twice.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker, runWorker } from './test-support/workerd-bundle.ts';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
const EXAMPLE_URL = 'https://mcp.example.com/mcp';

/** The first fenced block of a language in the README. */
function block(language: string): string {
  const found = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(README);
  if (!found) throw new Error(`README.md has no \`\`\`${language} block`);
  return found[1]!;
}

interface WranglerConfig {
  readonly main: string;
  readonly compatibility_date: string;
  readonly durable_objects: { readonly bindings: readonly { readonly name: string; readonly class_name: string }[] };
  readonly migrations: readonly { readonly new_sqlite_classes?: readonly string[] }[];
  readonly alias: Record<string, string>;
}
/** wrangler.jsonc as the README writes it (comments on lines of their own). */
const config = JSON.parse(block('jsonc').replace(/^\s*\/\/.*$/gm, '')) as WranglerConfig;

let chaos: ChaosServer | undefined;
let worker: Miniflare | undefined;
const project = mkdtempSync(join(tmpdir(), 'cloudflare-readme-'));

beforeAll(async () => {
  chaos = await startChaosServer();
  // A project of its own that installed the package: node_modules/@mcp-resilience/cloudflare is this package, built.
  mkdirSync(join(project, 'node_modules', '@mcp-resilience'), { recursive: true });
  symlinkSync(PACKAGE, join(project, 'node_modules', '@mcp-resilience', 'cloudflare'), 'dir');
  mkdirSync(dirname(join(project, config.main)), { recursive: true });
  writeFileSync(join(project, config.main), block('ts').replace(EXAMPLE_URL, chaos.url));
  const sqlite = new Set(config.migrations.flatMap((m) => m.new_sqlite_classes ?? []));
  worker = await runWorker(await bundleWorker(join(project, config.main), config.alias), {
    compatibilityDate: config.compatibility_date,
    durableObjects: Object.fromEntries(config.durable_objects.bindings.map((b) => [b.name, { className: b.class_name, useSQLite: sqlite.has(b.class_name) }])),
  });
});
afterAll(async () => {
  await worker?.dispose();
  await chaos?.stop();
  rmSync(project, { recursive: true, force: true });
});

describe('the README\'s Worker, as written', () => {
  it('answers, and its second request goes on with the first one\'s session', async () => {
    expect(block('ts')).toContain(EXAMPLE_URL);
    for (const _ of [1, 2]) {
      const response = await worker!.dispatchFetch('http://worker/');
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
    }
    expect(chaos!.state().log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1);
    expect(chaos!.state().log.filter((e) => e.rpcMethod === 'tools/call')).toHaveLength(2);
  });
});
