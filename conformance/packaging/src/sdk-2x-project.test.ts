// An app on the SDK 2.x client (@modelcontextprotocol/client) that installs @mcp-resilience/node
// from the tarballs: it gets no SDK 1.x (an optional peer, needed by connect() alone), the engine
// works as its transport's fetch, and connect() says plainly what it needs.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startChaosServer } from '@mcp-resilience/chaos';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { installTarballs, npmEnv, type NpmProject } from './npm-project.ts';
import './provided-context.ts';

/** The SDK 2.x client the workspace tests against. */
const SDK_2X = '2.4.0';
/** What a user on 2.x installs: the Node adapter, and through it the engine and core. */
const NODE = ['@mcp-resilience/node', '@mcp-resilience/client', '@mcp-resilience/core'];

/**
 * A hang guard for TypeScript 5.9 checking every declaration file of the project: about 18 s of CPU,
 * and over a minute beside the other packages' tests on a busy 2-core machine.
 */
const TSC_CAP_MS = 240_000;

const packed = inject('packed').filter((p) => NODE.includes(p.name));
let project: NpmProject;
let chaos: Awaited<ReturnType<typeof startChaosServer>>;

beforeAll(async () => {
  // TypeScript and Node's types as a 2.x app on TypeScript has them, to check our declarations in such an app.
  project = await installTarballs(packed, { '@modelcontextprotocol/client': SDK_2X, typescript: '5.9.3', '@types/node': '20.19.43' });
  chaos = await startChaosServer({});
});
afterAll(async () => {
  await chaos?.stop();
  project?.remove();
});

/** Runs a program in the project: its stdout, or the error with what it printed. */
async function runInProject(program: string): Promise<string> {
  writeFileSync(join(project.dir, 'app.mjs'), program);
  const { stdout } = await promisify(execFile)(process.execPath, ['app.mjs', chaos.url], { cwd: project.dir, env: npmEnv(), timeout: 30_000 });
  return stdout;
}

describe('a fresh project on the SDK 2.x client installing @mcp-resilience/node from the tarballs', () => {
  it('gets no @modelcontextprotocol/sdk (1.x): it is an optional peer', () => {
    expect(packed.map((p) => p.name).sort()).toEqual([...NODE].sort());
    expect(Object.keys(project.lock.packages).filter((path) => path.endsWith('node_modules/@modelcontextprotocol/sdk'))).toEqual([]);
    expect(project.lock.packages['node_modules/@modelcontextprotocol/client']?.version).toBe(SDK_2X);
  });

  it("calls a tool through the 2.x client's transport with the engine as its fetch", async () => {
    const stdout = await runInProject(`
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createResilientFetch } from '@mcp-resilience/node';
const client = new Client({ name: 'my-app', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2]), { fetch: createResilientFetch() }));
const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
console.log(result.content[0].text);
await client.close();
`);
    expect(stdout).toBe('hi\n');
  });

  it('type-checks in TypeScript with every declaration file checked (skipLibCheck off), ours included', async () => {
    writeFileSync(join(project.dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, skipLibCheck: false, noEmit: true, types: ['node'] },
      files: ['app.ts'],
    }));
    writeFileSync(join(project.dir, 'app.ts'), `
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createResilientFetch, resilienceCodeOf, type ResilienceEvent } from '@mcp-resilience/node';
const events: ResilienceEvent[] = [];
const client = new Client({ name: 'my-app', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2]!), { fetch: createResilientFetch({ onEvent: (e) => events.push(e) }) }));
try { await client.callTool({ name: 'echo', arguments: { text: 'hi' } }); } catch (error) { console.log(resilienceCodeOf(error)); }
`);
    const tsc = join(project.dir, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await promisify(execFile)(process.execPath, [tsc, '-p', '.'], { cwd: project.dir, env: npmEnv(), timeout: TSC_CAP_MS }).then(
      () => '', (error: { stdout?: string }) => error.stdout ?? String(error));
    expect(checked).toBe('');
  }, TSC_CAP_MS + 30_000);

  it('connect() (an SDK 1.x Client) rejects at once with PEER_MISSING naming the package', async () => {
    const stdout = await runInProject(`
import { connect, resilienceCodeOf } from '@mcp-resilience/node';
try { await connect(process.argv[2]); console.log('connected'); }
catch (error) { console.log(resilienceCodeOf(error), error.details.package); }
`);
    expect(stdout).toBe('PEER_MISSING @modelcontextprotocol/sdk\n');
  });
});
