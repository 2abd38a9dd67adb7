// app.close() waits for every open connection, and a keep-alive connection whose request was in
// flight when closing began stays open until its keep-alive timeout (72 s): Node closes idle
// connections once, when close() starts. So once closing, responses say `Connection: close`, and
// connections that went idle since (hijacked MCP responses included) are closed every 100 ms.
import type { FastifyInstance } from "fastify";

const IDLE_SWEEP_MS = 100;

export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false;
  let sweep: NodeJS.Timeout | undefined;

  app.addHook("preClose", async () => {
    closing = true;
    if (typeof app.server.closeIdleConnections === "function") {
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
