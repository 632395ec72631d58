// An mcp-chaos process on 127.0.0.1 for Deno's tests, started with `node` (needs --allow-run=node)
// and stopped by its PID by the test that started it.
const BIN = new URL('../../../chaos/bin/mcp-chaos.js', import.meta.url).pathname;

export interface ChaosProcess {
  readonly url: string;
  readonly control: string;
  readonly pid: number;
  applyFaults(faults: unknown): Promise<void>;
  stop(): Promise<void>;
}

export async function startChaos(args: readonly string[] = []): Promise<ChaosProcess> {
  const child = new Deno.Command('node', { args: [BIN, '--host', '127.0.0.1', '--port', '0', ...args], stdout: 'piped', stderr: 'inherit', stdin: 'null' }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('mcp-chaos exited before it listened');
    text += value;
  }
  void (async () => { while (!(await reader.read()).done); })(); // drain the rest until it exits
  const { url, control } = JSON.parse(text.split('\n')[0]!) as { url: string; control: string };
  return {
    url, control, pid: child.pid,
    async applyFaults(faults) {
      const response = await fetch(`${control}/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`faults refused: HTTP ${response.status}`);
    },
    async stop() {
      try { Deno.kill(child.pid, 'SIGTERM'); } catch { /* already gone */ }
      await child.status;
    },
  };
}

/** A 127.0.0.1 port nothing listens on: bound, then released. */
export function closedPort(): number {
  const listener = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}
