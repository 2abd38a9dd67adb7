import { describe, expect, it } from "vitest";
import { type NdjsonLine, readNdjsonLines } from "./ndjson-lines.js";

async function lines(chunks: Array<string | Buffer>, max = 1024): Promise<NdjsonLine[]> {
  const out: NdjsonLine[] = [];
  for await (const line of readNdjsonLines(chunks, max)) out.push(line);
  return out;
}

describe("readNdjsonLines", () => {
  it("splits lines across chunk boundaries and numbers them", async () => {
    expect(await lines(["a\nb", "c\n", "\nd"])).toEqual([
      { number: 1, text: "a" },
      { number: 2, text: "bc" },
      { number: 3, text: "" },
      { number: 4, text: "d" },
    ]);
  });

  it("strips CRLF endings and a leading byte order mark", async () => {
    expect(await lines(["\uFEFF{}\r\n{}\r\n"])).toEqual([
      { number: 1, text: "{}" },
      { number: 2, text: "{}" },
    ]);
  });

  it("keeps a multi-byte character split between chunks intact", async () => {
    const bytes = Buffer.from("记忆\n", "utf8");
    expect(await lines([bytes.subarray(0, 2), bytes.subarray(2)])).toEqual([{ number: 1, text: "记忆" }]);
  });

  it("reports a line over the limit and goes on with the next one, never holding it", async () => {
    const long = "x".repeat(40);
    expect(await lines([`ok\n${long.slice(0, 20)}`, `${long.slice(20)}\nnext\n${long}`], 16)).toEqual([
      { number: 1, text: "ok" },
      { number: 2, tooLong: true },
      { number: 3, text: "next" },
      { number: 4, tooLong: true },
    ]);
  });
});
