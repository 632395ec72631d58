/**
 * Waits until `done` holds, checking every 5 ms, for 10 s at most (then it throws): for what real
 * servers and sockets deliver when they deliver it (a stream opened, an event arrived), never to
 * let time pass. Time is the clock ports' business.
 *
 * @example
 * await until(() => chaos.state().sessions.some((s) => s.openStreams > 0));
 */
export async function until(done: () => boolean, what = 'the condition'): Promise<void> {
  for (const deadline = Date.now() + 10_000; !done(); await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (Date.now() > deadline) throw new Error(`${what} did not hold within 10 s`);
  }
}
