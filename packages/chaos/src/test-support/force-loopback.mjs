// Preloaded (node --import) into a server that binds every interface by default, such as
// @modelcontextprotocol/server-everything: every listen() binds 127.0.0.1 instead.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first, ...rest] = args;
  if (typeof first === 'object' && first !== null) return listen.call(this, { ...first, host: '127.0.0.1' }, ...rest);
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    const callback = rest.find((arg) => typeof arg === 'function');
    return listen.call(this, Number(first), '127.0.0.1', callback);
  }
  return listen.apply(this, args);
};
