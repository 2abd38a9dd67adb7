// NDJSON export and import over a real socket: streamed out, streamed in, chunk by chunk.
import type { Memory } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { ADMIN, bearer, listeningServer, openMemory } from "../test-support/server-harness.js";

const headers = { ...bearer(ADMIN), "content-type": "application/x-ndjson" };

/** A request body fed line by line from an async generator. */
function streamBody(lines: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = lines[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}

function recordImports(memory: Memory): number[] {
  const sizes: number[] = [];
  const original = memory.import.bind(memory);
  memory.import = async (entries, options) => {
    sizes.push([...(entries as Iterable<unknown>)].length);
    return original(entries, options);
  };
  return sizes;
}

describe("NDJSON transfer over a socket", () => {
  it("imports a stream chunk by chunk while it is still arriving, reporting bad lines by number", async () => {
    const memory = await openMemory();
    const sizes = recordImports(memory);
    const { url } = await listeningServer({ memory, limits: { importChunkSize: 250, bodyLimitBytes: 4096 } });
    const total = 5_000;
    let firstChunkWritten: () => void = () => {};
    const written = new Promise<void>((resolve) => {
      firstChunkWritten = resolve;
    });
    const check = setInterval(() => sizes.length > 0 && firstChunkWritten(), 5);

    async function* lines(): AsyncGenerator<string> {
      for (let n = 1; n <= total; n++) {
        if (n === 7) yield "{not json\n";
        else if (n === 8) yield `${JSON.stringify({ key: "empty", content: "" })}\n`;
        else if (n === 9) yield `${JSON.stringify({ key: "huge", content: "x".repeat(5000) })}\n`;
        else yield `${JSON.stringify({ key: `k${n}`, content: `entry number ${n}`, category: "daily" })}\n`;
        // The rest is sent only once the server has written its first chunk: proof that it reads
        // and imports as the body arrives instead of buffering it.
        if (n === 600) await written;
      }
    }

    const started = performance.now();
    const response = await fetch(`${url}/v1/import`, {
      method: "POST",
      headers,
      body: streamBody(lines()),
      duplex: "half",
    } as RequestInit);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(check);
    expect(response.status).toBe(200);
    const report = await response.json();
    expect(report).toEqual({
      imported: total - 3,
      accepted: total - 3,
      rejected: 3,
      errors: [
        { line: 7, code: "INVALID_INPUT", message: expect.stringMatching(/^line: invalid JSON/) },
        { line: 8, code: "INVALID_INPUT", message: "content: must not be empty" },
        { line: 9, code: "PAYLOAD_TOO_LARGE", message: "the line is over the limit of 4096 bytes" },
      ],
      errorsTruncated: false,
      dryRun: false,
    });
    expect(await memory.count({ namespace: "*" })).toBe(total - 3);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(250);
    expect(sizes.length).toBe(Math.ceil((total - 3) / 250));
    console.info(
      `import: ${total} lines in ${seconds.toFixed(2)} s (${Math.round(total / seconds)} lines/s)`,
    );
  });

  it("streams an export as NDJSON that imports back into another store unchanged", async () => {
    const source = await openMemory();
    await source.import(
      Array.from({ length: 1_500 }, (_, i) => ({
        key: `k${i}`,
        content: `fact ${i} ${"word ".repeat(20)}`,
        namespace: i % 2 === 0 ? "even" : "odd",
        sessionId: `s${i % 7}`,
      })),
    );
    const from = await listeningServer({ memory: source });
    const exported = await fetch(`${from.url}/v1/export`, { headers: bearer(ADMIN) });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(exported.headers.get("content-length")).toBeNull();
    expect(exported.headers.get("transfer-encoding")).toBe("chunked");
    const text = await exported.text();
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(1_500);

    const target = await openMemory();
    const to = await listeningServer({ memory: target });
    const imported = await fetch(`${to.url}/v1/import`, { method: "POST", headers, body: text });
    expect(((await imported.json()) as { imported: number }).imported).toBe(1_500);
    const strip = (entries: Awaited<ReturnType<Memory["export"]>>) =>
      entries.map(({ id, key, content, namespace, sessionId, createdAt, updatedAt }) => ({
        id,
        key,
        content,
        namespace,
        sessionId,
        createdAt,
        updatedAt,
      }));
    expect(strip(await target.export())).toEqual(strip(await source.export()));
  });

  it("exports one namespace, filtered, and a dry-run import writes nothing", async () => {
    const memory = await openMemory();
    await memory.store("a", "alpha", { namespace: "n1", category: "core" });
    await memory.store("b", "beta", { namespace: "n1", category: "daily" });
    await memory.store("c", "gamma", { namespace: "n2", category: "core" });
    const { url } = await listeningServer({ memory });
    const exported = await fetch(`${url}/v1/export?namespace=n1&category=core`, { headers: bearer(ADMIN) });
    expect(
      (await exported.text())
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).key),
    ).toEqual(["a"]);
    const dry = await fetch(`${url}/v1/import?dryRun=true&namespace=n3`, {
      method: "POST",
      headers,
      body: '{"key":"x","content":"y"}\n{"key":"","content":"y"}\n',
    });
    expect(await dry.json()).toMatchObject({ imported: 0, accepted: 1, rejected: 1, dryRun: true });
    expect(await memory.count({ namespace: "n3" })).toBe(0);
  });

  it("reads the export page by page while it is sent, not all at once before", async () => {
    const memory = await openMemory();
    // 8k lines of ~2 KB: far more than the socket and stream buffers between server and client hold.
    const total = 8_000;
    await memory.import(
      Array.from({ length: total }, (_, i) => ({ key: `k${i}`, content: `entry ${i} ${"x".repeat(2_000)}` })),
    );
    const { url } = await listeningServer({ memory });
    const response = await fetch(`${url}/v1/export`, { headers: bearer(ADMIN) });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    // The first lines are out; an entry stored now is read with a later page (an export read whole
    // before sending, as before, would not hold it).
    await memory.store("late", "stored while the export was being sent");
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
    }
    const keys = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).key as string);
    expect(keys.length).toBe(total + 1);
    expect(keys.at(-1)).toBe("late");
    expect(new Set(keys).size).toBe(total + 1);
  }, 30_000);

  it("answers a bad filter with 400 before streaming anything", async () => {
    const { url } = await listeningServer({ memory: await openMemory() });
    const response = await fetch(`${url}/v1/export?since=yesterday`, { headers: bearer(ADMIN) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("INVALID_INPUT");
  });
});
