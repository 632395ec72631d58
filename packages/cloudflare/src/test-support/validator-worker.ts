// A Worker that calls a tool with an `outputSchema` in one of two ways: through the plain SDK
// client with its default validator (Ajv), or through this package's `connect`. Bundled as it
// is (Ajv not aliased away) and run by Miniflare, where code generation is refused as on Cloudflare.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connect } from '../index.ts';


async function sdkDefault(url: string): Promise<Client> {
  const client = new Client({ name: 'sdk-default', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** `GET /?url=MCP_URL&tool=NAME&client=sdk-default|connect` → `{ structuredContent }` or `{ error: { name, message } }`. */
export default {
  async fetch(request: Request, _env: unknown, ctx: ExecutionContext): Promise<Response> {
    const params = new URL(request.url).searchParams;
    const url = params.get('url')!;
    const client = params.get('client') === 'sdk-default' ? await sdkDefault(url) : await connect(url);
    try {
      await client.listTools(); // the SDK learns the output schemas here
      const result = await client.callTool({ name: params.get('tool')! });
      return Response.json({ structuredContent: result.structuredContent });
    } catch (error) {
      return Response.json({ error: { name: (error as Error).name, message: (error as Error).message } });
    } finally {
      ctx.waitUntil(client.close());
    }
  },
} satisfies ExportedHandler;
