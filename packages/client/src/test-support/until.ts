/**
 * Waits until `done` holds, checking every 5 ms: for what real servers and sockets deliver when
 * they deliver it (a stream opened, an event arrived), never to let time pass. Time is the clock
 * ports' business. What it waits for holds within milliseconds on a quiet machine: its 10 s are a
 * hang guard, and reaching them throws "hung".
 *
 * @example
 * await until(() => chaos.state().sessions.some((s) => s.openStreams > 0));
 */
export async function until(done: () => boolean, what = 'the condition'): Promise<void> {
  for (const deadline = Date.now() + 10_000; !done(); await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (Date.now() > deadline) throw new Error(`hung: ${what} did not hold within 10 s (a hang guard: it holds in milliseconds)`);
  }
}
