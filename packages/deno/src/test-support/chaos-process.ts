// An mcp-chaos process on 127.0.0.1 for Deno's tests, started with `node` (needs --allow-run=node)
// and stopped through its handle by the test that started it.
const BIN = new URL('../../../chaos/bin/mcp-chaos.js', import.meta.url).pathname;
const START_WITHIN_MS = 15_000;
const TERM_WITHIN_MS = 5_000;

export interface ChaosProcess {
  readonly url: string;
  readonly control: string;
  readonly pid: number;
  applyFaults(faults: unknown): Promise<void>;
  stop(): Promise<void>;
}

/** What `work` comes to, or `undefined` when `ms` pass first; leaves no timer behind. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([work, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export async function startChaos(args: readonly string[] = []): Promise<ChaosProcess> {
  const child = new Deno.Command('node', { args: [BIN, '--host', '127.0.0.1', '--port', '0', ...args], stdout: 'piped', stderr: 'inherit', stdin: 'null' }).spawn();
  let exited = false;
  void child.status.then(() => (exited = true));
  // Through its handle: Deno.kill(pid) needs an unrestricted --allow-run, the child's own kill()
  // does not (with --allow-run=node, Deno.kill throws NotCapable and the process lives on).
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    if ((await within(child.status, TERM_WITHIN_MS)) === undefined && !exited) child.kill('SIGKILL');
    await child.status;
  };
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const firstLine = (async () => {
    let text = '';
    while (!text.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) throw new Error('mcp-chaos exited before it listened');
      text += value;
    }
    return text.split('\n')[0]!;
  })();
  let line: string | undefined;
  try {
    line = await within(firstLine, START_WITHIN_MS);
    if (line === undefined) throw new Error(`mcp-chaos did not listen within ${START_WITHIN_MS} ms`);
  } catch (error) {
    await stop();
    throw error;
  }
  void (async () => { while (!(await reader.read()).done); })(); // drain the rest until it exits
  const { url, control } = JSON.parse(line) as { url: string; control: string };
  return {
    url, control, pid: child.pid, stop,
    async applyFaults(faults) {
      const response = await fetch(`${control}/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`faults refused: HTTP ${response.status}`);
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
