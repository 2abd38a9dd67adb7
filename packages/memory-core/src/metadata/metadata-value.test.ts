import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { MAX_METADATA_BYTES, metadataOf } from "./metadata-value.js";

function refusedField(value: unknown): string | undefined {
  try {
    metadataOf(value);
  } catch (error) {
    if (isMemoryError(error, "INVALID_INPUT")) return error.field;
    throw error;
  }
  throw new Error("accepted");
}

describe("metadataOf", () => {
  it("copies a JSON object, so later changes to the caller's object change nothing", () => {
    const given = { project: "alpha", n: 2, ok: true, none: null, tags: ["a", 1], owner: { team: "x" } };
    const result = metadataOf(given);
    expect(result?.metadata).toEqual(given);
    given.owner.team = "changed";
    given.tags.push("b");
    expect(result?.metadata).toEqual({
      project: "alpha",
      n: 2,
      ok: true,
      none: null,
      tags: ["a", 1],
      owner: { team: "x" },
    });
    expect(result?.json).toBe(
      '{"project":"alpha","n":2,"ok":true,"none":null,"tags":["a",1],"owner":{"team":"x"}}',
    );
    expect(metadataOf(undefined)).toBeUndefined();
    expect(metadataOf({ a: undefined, b: 1 })?.metadata).toEqual({ b: 1 });
  });

  it("keeps a __proto__ key as a key", () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const result = metadataOf(parsed);
    expect(Object.getPrototypeOf(result?.metadata)).toBe(Object.prototype);
    expect(result?.json).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses anything but a JSON object, naming the path", () => {
    expect(refusedField("alpha")).toBe("metadata");
    expect(refusedField(["a"])).toBe("metadata");
    expect(refusedField(new Date())).toBe("metadata");
    expect(refusedField({ n: Number.POSITIVE_INFINITY })).toBe("metadata.n");
    expect(refusedField({ tags: ["a", undefined] })).toBe("metadata.tags[1]");
    expect(refusedField({ at: new Date() })).toBe("metadata.at");
    expect(refusedField({ big: 1n })).toBe("metadata.big");
    expect(refusedField({ f: () => 1 })).toBe("metadata.f");
    expect(refusedField({ s: "\uD800" })).toBe("metadata.s");
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 20; i++) deep = { next: deep };
    expect(refusedField(deep)).toMatch(/^metadata(\.next)+$/);
    expect(refusedField({ text: "x".repeat(MAX_METADATA_BYTES) })).toBe("metadata");
  });
});
