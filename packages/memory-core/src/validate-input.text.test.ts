import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "./sqlite/vectors/random-rotation.js";
import { requireText } from "./validate-input.js";

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The rule requireText implements, written the slow way: the message it refuses with, or null. */
function expectedRefusal(text: string, maxBytes: number): string | null {
  if (text.trim() === "") return "content: must not be empty";
  const lone = LONE.exec(text);
  if (lone !== null) {
    return `content: is not well-formed Unicode (a lone surrogate at index ${lone.index})`;
  }
  const bytes = new TextEncoder().encode(text).length;
  return bytes > maxBytes ? `content: is ${bytes} bytes, over the limit of ${maxBytes} bytes` : null;
}

function refusal(text: string, maxBytes: number): string | null {
  try {
    expect(requireText(text, "content", maxBytes)).toBe(text);
    return null;
  } catch (error) {
    if (isMemoryError(error, "INVALID_INPUT")) return error.message;
    throw error;
  }
}

describe("requireText on generated text", () => {
  it("accepts and refuses exactly as the rule does, near the byte limit and with lone surrogates", () => {
    // One, two, three and four bytes of UTF-8 (the last a surrogate pair), halves of pairs alone,
    // and whitespace.
    const pieces = ["a", "Z", " ", "\t", "é", "ß", "規", "ア", "😀"];
    const halves = ["\ud83d", "\ude00", "\ud800", "\udfff"];
    const random = mulberry32(11);
    const pick = (from: string[]) => from[Math.floor(random() * from.length)] as string;
    let refused = 0;
    let measured = 0;
    let lone = 0;
    for (let n = 0; n < 20_000; n++) {
      let text = "";
      const length = Math.floor(random() * 24);
      for (let i = 0; i < length; i++) text += random() < 0.01 ? pick(halves) : pick(pieces);
      const maxBytes = 1 + Math.floor(random() * 64);
      const expected = expectedRefusal(text, maxBytes);
      expect([text, maxBytes, refusal(text, maxBytes)]).toEqual([text, maxBytes, expected]);
      if (expected !== null) refused++;
      if (expected?.includes("bytes, over the limit")) measured++;
      if (expected?.includes("lone surrogate")) lone++;
    }
    // Both outcomes, and every kind of refusal, were met.
    expect(refused).toBeGreaterThan(2_000);
    expect(refused).toBeLessThan(18_000);
    expect(measured).toBeGreaterThan(500);
    expect(lone).toBeGreaterThan(500);
  });

  it("measures text whose length alone cannot rule out the limit: 33 characters of 2 bytes", () => {
    expect(refusal("é".repeat(33), 64)).toBe("content: is 66 bytes, over the limit of 64 bytes");
    expect(refusal("é".repeat(32), 64)).toBeNull();
    expect(refusal("😀".repeat(16), 64)).toBeNull();
    expect(refusal(`${"😀".repeat(16)}a`, 64)).toBe("content: is 65 bytes, over the limit of 64 bytes");
  });
});
