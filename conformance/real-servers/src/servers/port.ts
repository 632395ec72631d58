/**
 * The port a test asked a server entry to listen on (`PORT`). An entry never picks its own:
 * the test picks a free one and starts the server again on the same port after a restart.
 *
 * @example
 * app.listen(portFromEnv(), '127.0.0.1');
 */
export function portFromEnv(): number {
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`PORT must be a port number, got ${process.env.PORT}`);
  return port;
}
