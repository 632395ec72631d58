/**
 * Preloaded (`node --import`) into servers that bind every interface by default
 * (`@modelcontextprotocol/server-everything`, the SDK's shipped examples): every `listen()`
 * binds 127.0.0.1 instead, so nothing a test starts is reachable from outside the machine.
 *
 * @example
 * // node --import ./dist/servers/force-loopback.js node_modules/…/server-everything/dist/index.js streamableHttp
 *
 * @module
 */
import net from 'node:net';

const listen = net.Server.prototype.listen as (this: net.Server, ...args: unknown[]) => net.Server;

net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
  const [first, ...rest] = args;
  if (typeof first === 'object' && first !== null) return listen.call(this, { ...first, host: '127.0.0.1' }, ...rest);
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    const callback = rest.find((arg) => typeof arg === 'function');
    return listen.call(this, Number(first), '127.0.0.1', ...(callback ? [callback] : []));
  }
  return listen.apply(this, args);
} as typeof net.Server.prototype.listen;
