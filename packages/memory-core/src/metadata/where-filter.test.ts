import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { whereOf } from "./where-filter.js";

function refusal(value: unknown): { field?: string; message: string } {
  try {
    whereOf(value);
  } catch (error) {
    if (isMemoryError(error, "INVALID_INPUT")) return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error("accepted");
}

describe("whereOf", () => {
  it("reads plain values as $eq and operators as typed conditions, dotted fields as paths", () => {
    expect(
      whereOf({
        project: "alpha",
        "owner.team": { $in: ["a", "b"] },
        priority: { $gte: 2, $lt: 5 },
        done: false,
        archived: { $exists: false },
        note: null,
        tag: { $ne: "x", $nin: [1, true] },
      }),
    ).toEqual([
      { op: "eq", path: ["project"], value: "alpha" },
      { op: "in", path: ["owner", "team"], values: ["a", "b"] },
      { op: "gte", path: ["priority"], value: 2 },
      { op: "lt", path: ["priority"], value: 5 },
      { op: "eq", path: ["done"], value: false },
      { op: "exists", path: ["archived"], value: false },
      { op: "eq", path: ["note"], value: null },
      { op: "ne", path: ["tag"], value: "x" },
      { op: "nin", path: ["tag"], values: [1, true] },
    ]);
    expect(whereOf(undefined)).toBeUndefined();
    expect(whereOf({})).toEqual([]);
  });

  it("refuses what it cannot mean, naming the path", () => {
    expect(refusal({ project: { $like: "a%" } }).field).toBe("where.project.$like");
    expect(refusal({ $gt: 1 }).field).toBe("where.$gt");
    expect(refusal({ $or: [{ a: 1 }] }).field).toBe("where.$or");
    expect(refusal({ priority: { $gt: true } }).field).toBe("where.priority.$gt");
    expect(refusal({ priority: { $gt: Number.NaN } }).field).toBe("where.priority.$gt");
    expect(refusal({ tags: ["a"] }).field).toBe("where.tags");
    expect(refusal({ tags: { $in: "a" } }).field).toBe("where.tags.$in");
    expect(refusal({ tags: { $in: ["a", { b: 1 }] } }).field).toBe("where.tags.$in[1]");
    expect(refusal({ tags: {} }).field).toBe("where.tags");
    expect(refusal({ "a..b": 1 }).field).toBe("where.a..b");
    expect(refusal({ "a'); DROP TABLE memories; --": 1 }).field).toBe("where.a'); DROP TABLE memories; --");
    expect(refusal({ done: { $exists: "yes" } }).field).toBe("where.done.$exists");
    expect(refusal([{ a: 1 }])).toEqual({
      field: "where",
      message: "where: expected an object of { field: value or { $operator: value } }",
    });
    expect(refusal("project=alpha").field).toBe("where");
  });

  it("bounds the size of a filter", () => {
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`f${i}`, i]));
    expect(refusal(many).field).toBe("where");
    expect(refusal({ tag: { $in: Array.from({ length: 257 }, (_, i) => i) } }).field).toBe("where.tag.$in");
  });
});
