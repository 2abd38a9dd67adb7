import { describe, expect, it } from "vitest";
import { BinaryCopyWriter, timestampMicros } from "./copy-binary.js";

const hex = (buffers: readonly Buffer[]) => Buffer.concat(buffers).toString("hex");

describe("binary COPY rows", () => {
  it("opens with the signature, closes with -1, and writes each type's binary form", () => {
    const copy = new BinaryCopyWriter();
    copy.row([
      { type: "text", value: "é" },
      { type: "text", value: null },
      { type: "int4", value: -2 },
      { type: "float8", value: 0.5 },
      { type: "bool", value: true },
      { type: "timestamptz", value: "2000-01-01T00:00:01.000Z" },
      { type: "float4[]", value: Float32Array.of(1, -0) },
    ]);
    expect(hex(copy.end())).toBe(
      [
        "5047434f50590aff0d0a00", // PGCOPY\n\377\r\n\0
        "00000000", // flags
        "00000000", // header extension
        "0007", // fields
        "00000002c3a9", // "é" in UTF-8
        "ffffffff", // NULL
        "00000004fffffffe", // -2
        "000000083fe0000000000000", // 0.5
        "0000000101", // true
        "0000000800000000000f4240", // 1 s after 2000-01-01, in µs
        "00000024", // the array: 36 bytes
        "00000001000000000000" + "02bc", // 1 dimension, no NULLs, float4
        "0000000200000001", // 2 elements from index 1
        "000000043f800000", // 1
        "0000000480000000", // -0
        "ffff", // end of data
      ].join(""),
    );
  });

  it("gives the same bytes whatever the size of its buffers", () => {
    const rows = Array.from({ length: 50 }, (_, i) => [
      { type: "text", value: `row ${i} `.repeat(i) } as const,
      { type: "float4[]", value: Float32Array.from({ length: i }, (_, j) => j / 3) } as const,
    ]);
    const big = new BinaryCopyWriter();
    const small = new BinaryCopyWriter(16);
    for (const row of rows) {
      big.row(row);
      small.row(row);
    }
    const smallBuffers = small.end();
    expect(smallBuffers.length).toBeGreaterThan(50);
    expect(hex(smallBuffers)).toBe(hex(big.end()));
  });

  it("writes a vector's floats bit for bit, the odd ones too", () => {
    const values = [0.1, -3.4028234663852886e38, 1.401298464324817e-45, Number.NaN, -Infinity, 1 / 3];
    const copy = new BinaryCopyWriter();
    copy.row([{ type: "float4[]", value: Float32Array.from(values) }]);
    const expected = Buffer.alloc(values.length * 8);
    values.forEach((value, i) => {
      expected.writeInt32BE(4, i * 8);
      expected.writeFloatBE(value, i * 8 + 4);
    });
    // Past the signature, flags and extension (19 bytes), the field count (2), length and array header (24).
    expect(
      Buffer.concat(copy.end())
        .subarray(19 + 2 + 24, -2)
        .toString("hex"),
    ).toBe(expected.toString("hex"));
    expect(expected.subarray(4, 8).toString("hex")).toBe("3dcccccd"); // 0.1 as a float4
  });

  it("counts time in microseconds from 2000-01-01 UTC, before it too, keeping digits past the millisecond", () => {
    expect(timestampMicros("2000-01-01T00:00:00Z")).toBe(0n);
    expect(timestampMicros("1999-12-31T23:59:59.999Z")).toBe(-1000n);
    expect(timestampMicros("2026-11-29T12:00:00.123456Z")).toBe(849_268_800_123_456n);
    expect(timestampMicros("2026-11-29T14:00:00.5+02:00")).toBe(849_268_800_500_000n);
    expect(() => timestampMicros("yesterday")).toThrow(RangeError);
  });
});
