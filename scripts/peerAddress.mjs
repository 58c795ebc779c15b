// Preloaded into `next start` (NODE_OPTIONS --import, see nextServer.mjs). Every request carries the
// address of the connection it came on, as `x-buildcop-peer`, written here over anything the client
// sent. Next.js shows route handlers no socket, and keeps a client's own X-Forwarded-For: without
// this, whoever guesses sign-in tokens could name a new client per guess (lib/server/clientAddress.ts).
import http from 'node:http';

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function emitWithPeer(event, ...args) {
  if (event === 'request') args[0].headers['x-buildcop-peer'] = args[0].socket?.remoteAddress ?? '';
  return emit.call(this, event, ...args);
};
// what tells lib/server/clientAddress.ts that the header is this one's, not a client's
globalThis[Symbol.for('buildcop.peerHeader')] = true;
