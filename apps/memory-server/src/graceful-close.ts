// Shutdown in the order a client can live with: stop accepting connections, finish what is in
// flight — including requests that arrive on connections already open, which are served and
// answered with `Connection: close` rather than cut — and only then close the idle connections.
//
// Node's http server closes idle keep-alive connections the moment close() is called, so a client
// that had just sent its next request on one sees a reset. Here the listener is closed first
// (net.Server's close, which leaves connections alone), the idle ones are closed once no request is
// running (or after DRAIN_MAX_MS), and from then on every 100 ms (connections that went idle since,
// hijacked MCP responses included), since app.close() waits for every open connection.
import { Server as NetServer } from "node:net";
import type { FastifyInstance } from "fastify";

const IDLE_SWEEP_MS = 100;
/** Longest wait for running requests before idle connections are closed (running ones still finish). */
const DRAIN_MAX_MS = 5_000;

export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false;
  let sweep: NodeJS.Timeout | undefined;
  let running = 0;
  let drained: (() => void) | null = null;

  app.server.on("request", (_request, response) => {
    running++;
    response.once("close", () => {
      running--;
      if (running === 0) drained?.();
    });
  });

  app.addHook("preClose", async () => {
    closing = true;
    // Stop accepting connections without touching the open ones.
    if (app.server.listening) NetServer.prototype.close.call(app.server);
    if (running > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, DRAIN_MAX_MS);
        timer.unref();
        drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      drained = null;
    }
    if (typeof app.server.closeIdleConnections === "function") {
      app.server.closeIdleConnections();
      sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
      sweep.unref();
    }
  });

  app.addHook("onSend", async (_request, reply) => {
    if (closing) reply.header("connection", "close");
  });

  app.addHook("onClose", async () => {
    clearInterval(sweep);
  });
}
