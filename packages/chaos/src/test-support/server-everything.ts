import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** A running @modelcontextprotocol/server-everything, bound to 127.0.0.1. */
export interface ServerEverything {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts server-everything's Streamable HTTP mode on 127.0.0.1; stop() ends it by its PID. */
export async function startServerEverything(): Promise<ServerEverything> {
  const entry = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
  const preload = new URL('./force-loopback.mjs', import.meta.url).href;
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', preload, entry, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server-everything exited: ${stderr}`);
    const up = await fetch(url, { method: 'POST', body: '{}' }).then(() => true, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server-everything did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid!, 'SIGTERM');
      await exited;
    },
  };
}
