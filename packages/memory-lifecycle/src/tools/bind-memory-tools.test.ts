import type { Memory } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { openWorkspaceMemory, recordingLogger } from "../test-support/temp-workspace.js";
import { type BoundMemoryTool, bindMemoryTools, isMemoryToolError } from "./bind-memory-tools.js";

function byName(tools: BoundMemoryTool[], name: string): BoundMemoryTool {
  const found = tools.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

describe("bindMemoryTools", () => {
  it("stores, recalls, gets and forgets with the MCP tools' results", async () => {
    const memory = await openWorkspaceMemory();
    const tools = bindMemoryTools(memory, { sessionId: "s1", actor: "agent:test" });
    expect(tools.map((t) => t.name)).toEqual([
      "memory_store",
      "memory_recall",
      "memory_forget",
      "memory_get",
    ]);

    const stored = await byName(tools, "memory_store").call({
      key: "tz",
      content: "The user lives in Lisbon",
    });
    expect(stored).toMatchObject({ key: "tz", content: "The user lives in Lisbon", category: "core" });
    expect((await memory.get("tz"))?.sessionId).toBe("s1");
    expect((await memory.history("tz"))[0]?.actor).toBe("agent:test");

    const recalled = (await byName(tools, "memory_recall").call({ query: "where does the user live" })) as {
      results: Array<{ key: string; score: number }>;
    };
    expect(recalled.results.map((r) => r.key)).toEqual(["tz"]);
    expect(recalled.results[0]?.score).toBeGreaterThanOrEqual(0.5);

    expect(await byName(tools, "memory_get").call({ key: "tz" })).toMatchObject({
      content: "The user lives in Lisbon",
    });
    expect(await byName(tools, "memory_forget").call({ key: "tz" })).toEqual({ key: "tz", removed: true });
    expect(await memory.count()).toBe(0);
  });

  it("answers bad input with an INVALID_INPUT error naming the field, and writes nothing", async () => {
    const memory = await openWorkspaceMemory();
    const store = byName(bindMemoryTools(memory), "memory_store");
    expect(await store.call({ key: 42, content: "x" })).toEqual({
      error: {
        code: "INVALID_INPUT",
        message: "key: Invalid input: expected string, received number",
        field: "key",
      },
    });
    const missing = await store.call({ key: "k" });
    expect(isMemoryToolError(missing) && missing.error.field).toBe("content");
    const notAnObject = await store.call("remember this");
    expect(isMemoryToolError(notAnObject) && notAnObject.error.field).toBe("input");
    // The memory's own validation names nested fields the same way.
    const ttl = await store.call({ key: "k", content: "v", ttl: "a while" });
    expect(ttl).toEqual({
      error: {
        code: "INVALID_INPUT",
        message: 'ttl: expected an age such as "30m", "12h", "7d", "2w" or "1y"',
        field: "ttl",
      },
    });
    expect(await memory.count()).toBe(0);
  });

  it("reports a missing key as NOT_FOUND without a field", async () => {
    const memory = await openWorkspaceMemory();
    expect(await byName(bindMemoryTools(memory), "memory_get").call({ key: "nope" })).toEqual({
      error: { code: "NOT_FOUND", message: 'no memory with key "nope"' },
    });
  });

  it("confines the tools to the namespace given and leaves out writes when read-only", async () => {
    const memory = await openWorkspaceMemory();
    await memory.store("secret", "tenant b data", { namespace: "tenant-b" });
    await memory.store("mine", "tenant a data", { namespace: "tenant-a" });
    const tools = bindMemoryTools(memory, { namespace: "tenant-a", readOnly: true });
    expect(tools.map((t) => t.name)).toEqual(["memory_recall", "memory_get"]);
    expect(await byName(tools, "memory_get").call({ key: "mine" })).toMatchObject({ namespace: "tenant-a" });
    expect(await byName(tools, "memory_get").call({ key: "secret", namespace: "tenant-b" })).toEqual({
      error: { code: "FORBIDDEN", message: 'this tool may not use the namespace "tenant-b"' },
    });
    const recalled = (await byName(tools, "memory_recall").call({ query: "data" })) as {
      results: Array<{ key: string }>;
    };
    expect(recalled.results.map((r) => r.key)).toEqual(["mine"]);
  });

  it("includes only the tools asked for and refuses an unknown one", async () => {
    const memory = await openWorkspaceMemory();
    expect(bindMemoryTools(memory, { include: ["memory_get", "memory_store"] }).map((t) => t.name)).toEqual([
      "memory_store",
      "memory_get",
    ]);
    expect(() => bindMemoryTools(memory, { include: ["memory_search" as never] })).toThrow(
      /include: unknown tool/,
    );
  });

  it("logs a failure that is not a MemoryError and reports it as INTERNAL", async () => {
    const memory = await openWorkspaceMemory();
    const broken: Memory = Object.create(memory, {
      get: { value: () => Promise.reject(new Error("disk on fire")) },
    });
    const logger = recordingLogger();
    const get = byName(bindMemoryTools(broken, { logger }), "memory_get");
    expect(await get.call({ key: "k" })).toEqual({ error: { code: "INTERNAL", message: "the tool failed" } });
    expect(logger.lines).toEqual(["error: memory_get failed"]);
  });

  it("accepts any value through its input schema and describes the real one in JSON Schema", async () => {
    const memory = await openWorkspaceMemory();
    const schema = byName(bindMemoryTools(memory), "memory_store").inputSchema["~standard"];
    expect(schema.validate({ key: 1 })).toEqual({ value: { key: 1 } });
    const json = schema.jsonSchema.input({ target: "draft-07" }) as {
      type: string;
      required: string[];
      properties: Record<string, { type?: string }>;
    };
    expect(json.type).toBe("object");
    expect(json.required).toEqual(["key", "content"]);
    expect(json.properties.ttl?.type).toBe("string");
    expect(json).not.toHaveProperty("$schema");
  });
});
