// Property-based: any object given as configuration parses or is refused as INVALID_INPUT naming
// a key; never a TypeError, never a crash inside the schema.
import { isMemoryError } from "@claw/memory-api";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseConfig } from "./parse-config.js";

const KEYS = [
  "backend",
  "searchMode",
  "embeddingProvider",
  "decayFloor",
  "decayHalfLifeDays",
  "recallLimitMax",
  "hotCacheSize",
  "mergeStrategy",
  "memory",
  "server",
  "providers",
  "postgres",
  "tokens",
  "port",
  "host",
  "rateLimitPerSecond",
  "conflictThreshold",
  "retention",
  "__proto__",
  "constructor",
];

const anyValue = fc.anything({ maxDepth: 3, withNullPrototype: true, withBigInt: true, withDate: true });

describe("parseConfig (property)", () => {
  it("returns a config or throws INVALID_INPUT, for any object", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.dictionary(fc.constantFrom(...KEYS), anyValue, { maxKeys: 6 }), anyValue),
        (input) => {
          try {
            const config = parseConfig(input);
            expect(typeof config.memory.recallLimitMax).toBe("number");
          } catch (error) {
            if (!isMemoryError(error, "INVALID_INPUT")) throw error;
            expect(error.message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
