import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type LoopbackRequest,
  type LoopbackServer,
  readJsonBody,
  startLoopbackServer,
} from "./loopback-server.js";

interface Seen {
  method: string;
  url: string;
  pathname: string;
  body: Record<string, unknown>;
}

let server: LoopbackServer<Seen>;
let handle: (seen: Seen, request: LoopbackRequest) => unknown;

beforeEach(async () => {
  handle = (seen) => ({ body: { echo: seen.body } });
  server = await startLoopbackServer<Seen>({
    record: ({ method, url, pathname, raw }) => ({ method, url, pathname, body: readJsonBody(raw) }),
    handle: (seen, request) => handle(seen, request) as never,
  });
});

afterEach(async () => {
  await server.close();
});

function post(path: string, body: unknown, init: RequestInit = {}) {
  return fetch(`${server.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...init,
  });
}

describe("startLoopbackServer", () => {
  it("listens on 127.0.0.1, records each request with its parsed body, and answers JSON", async () => {
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const response = await post("/v1/things?x=1", { a: 1 });

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ echo: { a: 1 } });
    expect(server.requests).toEqual([
      { method: "POST", url: "/v1/things?x=1", pathname: "/v1/things", body: { a: 1 } },
    ]);
  });

  it("sends strings as they are, as text/plain unless told otherwise", async () => {
    handle = () => ({ status: 503, body: "upstream overloaded" });
    const text = await post("/", {});
    expect([text.status, text.headers.get("content-type"), await text.text()]).toEqual([
      503,
      "text/plain",
      "upstream overloaded",
    ]);

    handle = () => ({ body: "a\nb\n", headers: { "Content-Type": "application/octet-stream" } });
    const bytes = await post("/", {});
    expect([bytes.headers.get("content-type"), await bytes.text()]).toEqual([
      "application/octet-stream",
      "a\nb\n",
    ]);
  });

  it("answers the next requests with scripted failures, then with the handler again", async () => {
    server.failNext({ status: 429, body: { error: "slow down" }, headers: { "retry-after": "7" } }, 2);

    const answers = [];
    for (let i = 0; i < 3; i++) {
      const response = await post("/", { i });
      answers.push([response.status, response.headers.get("retry-after"), await response.json()]);
    }

    expect(answers).toEqual([
      [429, "7", { error: "slow down" }],
      [429, "7", { error: "slow down" }],
      [200, null, { echo: { i: 2 } }],
    ]);
    expect(server.requests).toHaveLength(3);
  });

  it("answers 500 with the message when the handler throws", async () => {
    handle = () => {
      throw new Error("fake broke");
    };
    const response = await post("/", {});
    expect([response.status, await response.json()]).toEqual([500, { error: { message: "fake broke" } }]);
  });

  it("holds a delayed answer, and reset() drops it along with the log and the scripted failures", async () => {
    server.delayNext(60_000);
    server.failNext({ status: 500 });
    const controller = new AbortController();
    const pending = post("/", {}, { signal: controller.signal }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));

    server.reset();
    controller.abort();

    expect(await pending).toMatchObject({ name: "AbortError" });
    expect(server.requests).toEqual([]);
    const next = await post("/", { after: "reset" });
    expect([next.status, await next.json()]).toEqual([200, { echo: { after: "reset" } }]);
  });
});

describe("readJsonBody", () => {
  it("is the JSON object sent, or {} for an empty, broken or non-object body", () => {
    expect(readJsonBody(Buffer.from('{"a":[1]}'))).toEqual({ a: [1] });
    for (const raw of ["", "  ", "{broken", "[1,2]", "3"]) expect(readJsonBody(Buffer.from(raw))).toEqual({});
  });
});
