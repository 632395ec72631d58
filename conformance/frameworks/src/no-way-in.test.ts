// The two frameworks the page says offer no way in for a fetch: checked on the pinned versions,
// so the page is revisited when a release opens one.
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { installedVersion } from './framework-run.ts';

// Imported by a name TypeScript does not follow: its declarations (and @langchain/core's) would
// double the type-check's time for one constructor.
type Tool = { name: string; invoke(args: unknown): Promise<unknown> };
type MultiServer = new (config: { mcpServers: Record<string, { url: string }> }) => { getTools(): Promise<Tool[]>; close(): Promise<void> };
const ADAPTERS: string = '@langchain/mcp-adapters';

const useMcpTypes = () => readFileSync(new URL('../node_modules/use-mcp/dist/react/index.d.ts', import.meta.url), 'utf8');
const useMcpCode = () => readFileSync(new URL('../node_modules/use-mcp/dist/react/index.js', import.meta.url), 'utf8');

describe('no way in for a fetch', () => {
  it(`${installedVersion('@langchain/mcp-adapters')}: MultiServerMCPClient drops a fetch in a connection's config without a word`, async () => {
    const { MultiServerMCPClient } = (await import(ADAPTERS)) as { MultiServerMCPClient: MultiServer };
    const server = (await (await fetch(`${inject('chaosControl')}/servers`, { method: 'POST', body: '{}' })).json()) as { url: string; control: string };
    let seen = 0;
    const counting: typeof fetch = (input, init) => ((seen += 1), fetch(input, init));
    const mcp = new MultiServerMCPClient({ mcpServers: { chaos: { url: server.url, fetch: counting } as { url: string } } });
    try {
      const echo = (await mcp.getTools()).find((t) => t.name === 'echo');
      expect(JSON.stringify(await echo!.invoke({ text: 'through its own fetch' }))).toContain('through its own fetch');
      expect(seen).toBe(0);
    } finally {
      await mcp.close();
      await fetch(server.control, { method: 'DELETE' });
    }
  });

  it(`${installedVersion('use-mcp')}: useMcp takes no fetch and builds its transport from authProvider and requestInit alone`, () => {
    const options = useMcpTypes().match(/type UseMcpOptions = \{([\s\S]*?)\n\};/)?.[1];
    expect(options).toContain('url: string;');
    expect(options).not.toMatch(/\bfetch\??:/);
    const common = useMcpCode().match(/const commonOptions = \{([\s\S]*?)\n {8}\};/)?.[1];
    expect(common).toContain('authProvider');
    expect(common).not.toMatch(/\bfetch\b/);
    expect(useMcpCode()).toContain('new StreamableHTTPClientTransport(targetUrl, commonOptions)');
  });
});
