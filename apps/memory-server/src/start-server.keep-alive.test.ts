// Shutdown with clients on kept-alive connections: a request sent on a connection that is already
// open while the server drains is answered (with `Connection: close`), never reset.
import { Agent, request } from "node:http";
import { describe, expect, it } from "vitest";
import { startServer } from "./start-server.js";
import { heldProvider } from "./test-support/held-provider.js";
import { tempWorkspace } from "./test-support/server-harness.js";

const KEY = "keep-alive-test-key";

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

function send(url: string, agent: Agent, method: string, path: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${KEY}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }),
        );
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Polls with fresh connections until one is refused (the listener closes as close() starts). */
async function refusesNewConnections(url: string): Promise<boolean> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const fresh = new Agent({ keepAlive: false });
    const refused = await send(url, fresh, "GET", "/healthz").then(
      () => false,
      () => true,
    );
    fresh.destroy();
    if (refused) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

describe("graceful shutdown with kept-alive connections", () => {
  it("serves a request sent on an open connection while draining, then closes it", async () => {
    const held = heldProvider();
    const running = await startServer({
      workspaceDir: tempWorkspace(),
      host: "127.0.0.1",
      port: 0,
      env: { CLAW_MEMORY_API_KEY: KEY },
      embeddings: held.provider,
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    try {
      await running.memory.store("city", "The user lives in Lisbon");
      // Two connections, both kept alive.
      await Promise.all([
        send(running.url, agent, "GET", "/v1/memories/city"),
        send(running.url, agent, "GET", "/v1/memories/city"),
      ]);
      // One request in flight on the first connection...
      const inFlight = send(running.url, agent, "POST", "/v1/recall", {
        query: "which city",
        mode: "embedding",
      });
      await held.queried;
      const closed = running.close();
      // ...and, once the server has stopped accepting connections, the next request goes on the
      // second, idle one.
      expect(await refusesNewConnections(running.url)).toBe(true);
      const late = await send(running.url, agent, "GET", "/v1/memories/city");
      expect(late.status).toBe(200);
      expect(JSON.parse(late.body).content).toBe("The user lives in Lisbon");
      expect(late.connection).toBe("close");

      held.release();
      const recall = await inFlight;
      expect(recall.status).toBe(200);
      expect(JSON.parse(recall.body).results.map((r: { key: string }) => r.key)).toEqual(["city"]);
      await closed;
    } finally {
      agent.destroy();
    }
  });
});
