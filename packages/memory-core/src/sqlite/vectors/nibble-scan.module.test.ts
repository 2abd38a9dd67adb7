import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import wabt from "wabt";
import { NIBBLE_SCAN_WASM } from "./nibble-scan-module.js";

describe("nibble scan module", () => {
  it("is nibble-scan.wat assembled, byte for byte", async () => {
    const source = readFileSync(new URL("./nibble-scan.wat", import.meta.url), "utf8");
    const assembler = await wabt();
    const parsed = assembler.parseWat("nibble-scan.wat", source, { simd: true });
    try {
      parsed.validate();
      const { buffer } = parsed.toBinary({});
      expect(Buffer.from(buffer).toString("base64")).toBe(NIBBLE_SCAN_WASM);
    } finally {
      parsed.destroy();
    }
  });
});
