// Node side, the Worker in workerd (Miniflare): why the Workers-safe validator matters. The
// SDK's default validator, Ajv, compiles each output schema into code, which workerd refuses;
// connect() validates the same tool's structured output with CfWorkerJsonSchemaValidator.
import { fileURLToPath } from 'node:url';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSchemaServer } from './test-support/schema-server.ts';
import { bundleWorker, runWorker } from './test-support/workerd-bundle.ts';

let schemaServer: Awaited<ReturnType<typeof startSchemaServer>> | undefined;
let worker: Miniflare | undefined;
let bundle = '';

beforeAll(async () => {
  schemaServer = await startSchemaServer();
  bundle = await bundleWorker(fileURLToPath(new URL('./test-support/validator-worker.ts', import.meta.url)));
  worker = await runWorker(bundle);
});
afterAll(async () => {
  await worker?.dispose();
  await schemaServer?.stop();
});

async function callTool(client: 'sdk-default' | 'connect', tool: string): Promise<{ structuredContent?: unknown; error?: { name: string; message: string } }> {
  const query = new URLSearchParams({ url: schemaServer!.url, tool, client });
  return (await worker!.dispatchFetch(`http://worker/?${query}`)).json() as never;
}

describe('a tool with an outputSchema, in workerd', () => {
  it('fails with the SDK\'s default validator: Ajv generates code, and workerd refuses it', async () => {
    expect(bundle).toMatch(/\bnew Function\(/); // Ajv is in this bundle: what the sample's bundle check looks for
    expect(await callTool('sdk-default', 'weather')).toEqual({
      error: { name: 'EvalError', message: expect.stringContaining('Code generation from strings disallowed') },
    });
  });

  it('is validated by connect(): a result that fits its schema passes, one that does not is refused', async () => {
    expect(await callTool('connect', 'weather')).toEqual({ structuredContent: { celsius: 21 } });
    expect(await callTool('connect', 'broken-weather')).toEqual({
      error: { name: 'McpError', message: expect.stringMatching(/output schema/i) },
    });
  });
});

describe('no-ajv, the stand-in aliased for ajv in a Worker bundle', () => {
  it('refuses to be constructed with RUNTIME_UNSUPPORTED, naming what the runtime lacks', async () => {
    const { default: NoAjv } = await import('./no-ajv.ts');
    expect(() => new NoAjv()).toThrow(expect.objectContaining({
      code: 'RUNTIME_UNSUPPORTED', details: { needs: 'code generation' }, message: expect.stringMatching(/CfWorkerJsonSchemaValidator/),
    }));
  });
});
