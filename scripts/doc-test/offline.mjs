// Loaded into every node process a doc block starts (NODE_OPTIONS=--import): the doc-test runs
// offline, so a TCP connection to anything but this machine fails at once, with a message saying why,
// instead of reaching a provider (or hanging where there is no network). fetch, http, https and the
// providers' SDKs all connect through net.Socket.
import net from "node:net";

const connect = net.Socket.prototype.connect;

function isLoopback(host) {
  if (host === undefined || host === null || host === "") return true;
  const name = String(host)
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    /^127\./.test(name) ||
    /^::ffff:127\./.test(name) ||
    name === "::1" ||
    name === "0:0:0:0:0:0:0:1" ||
    name === "0.0.0.0" ||
    name === "::"
  );
}

// Not refused in place (a socket destroyed inside connect() breaks tls.connect, which goes on using
// it): the connection goes to a name whose lookup fails with the reason, the way a failed DNS lookup
// reaches the caller, as an 'error' event once its listeners are attached.
const OFFLINE_HOST = "offline.invalid";

net.Socket.prototype.connect = function guardedConnect(...args) {
  const normalized = Array.isArray(args[0]);
  const first = normalized ? args[0][0] : args[0];
  let options;
  if (first !== null && typeof first === "object") {
    if (first.path === undefined) options = first;
  } else if (typeof first === "number" || /^\d+$/.test(String(first))) {
    options = { port: Number(first), host: typeof args[1] === "string" ? args[1] : undefined };
    const callback = args.find((arg) => typeof arg === "function");
    args = callback ? [options, callback] : [options];
  }
  if (options === undefined || isLoopback(options.host)) return connect.apply(this, args);
  const target = `${options.host}:${options.port}`;
  options.host = OFFLINE_HOST;
  options.lookup = (_hostname, _options, callback) => {
    const error = new Error(
      `the doc-test runs offline: connecting to ${target} is refused (only this machine is reachable)`,
    );
    error.code = "ECONNREFUSED";
    callback(error);
  };
  return connect.apply(this, args);
};
