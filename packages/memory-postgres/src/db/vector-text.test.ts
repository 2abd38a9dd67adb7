import { describe, expect, it } from "vitest";
import { vectorText } from "./vector-text.js";

function parsed(text: string): Float32Array {
  return Float32Array.from(text.slice(1, -1).split(","), Number);
}

describe("vectorText", () => {
  it("gives back exactly the same float32 values", () => {
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const v = Float32Array.from({ length: 4096 }, (_, i) => (random() - 0.5) * 10 ** ((i % 24) - 12));
    expect(Array.from(parsed(vectorText(v)))).toEqual(Array.from(v));
  });

  it("writes array and pgvector literals, short forms for round numbers", () => {
    expect(vectorText(Float32Array.of(0, 1, -2.5, 0.1, 1e-8, 3e20))).toBe(
      "{0,1,-2.5,0.100000001,9.99999994e-9,3.00000006e+20}",
    );
    expect(vectorText(Float32Array.of(0.5, -0), "[]")).toBe("[0.5,0]");
    expect(vectorText(new Float32Array(0))).toBe("{}");
  });

  it("writes NaN and infinities as PostgreSQL reads them", () => {
    expect(vectorText(Float32Array.of(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY))).toBe(
      "{NaN,Infinity,-Infinity}",
    );
  });
});
