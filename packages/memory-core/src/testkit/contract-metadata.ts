import type { Memory } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { expectInvalid, keysOf, type MemoryContractHarness, openContractMemory } from "./contract-harness.js";

const METADATA = {
  project: "alpha",
  tags: ["a", "b"],
  owner: { team: "core", lead: null },
  priority: 2.5,
  done: false,
};

/** Entries of two projects; the best keyword match for "deploy pipeline" is beta's. */
async function seedProjects(memory: Memory): Promise<void> {
  await memory.import([
    {
      key: "beta-best",
      content: "deploy pipeline deploy pipeline: the beta deploy pipeline runs nightly",
      metadata: { project: "beta", priority: 3 },
    },
    {
      key: "alpha-deploy",
      content: "the alpha deploy pipeline needs a manual approval",
      metadata: { project: "alpha", priority: 1 },
    },
    {
      key: "alpha-other",
      content: "alpha pipeline notes about caching",
      metadata: { project: "alpha", priority: 5 },
    },
    { key: "untagged", content: "deploy pipeline without metadata" },
    {
      key: "gamma",
      content: "gamma deploy pipeline",
      metadata: { project: "gamma", owner: { team: "web" } },
    },
  ]);
}

/** MemoryEntry.metadata and `where` filters on recall, list and export. */
export function describeMetadataContract(harness: MemoryContractHarness): void {
  const open = (options = {}) => openContractMemory(harness, options);

  describe("metadata", () => {
    it("store, get, list, recall and export return it; import carries it", async () => {
      const memory = await open();
      const stored = await memory.store("k", "metadata travels with the entry", { metadata: METADATA });
      expect(stored.metadata).toEqual(METADATA);
      expect((await memory.get("k"))?.metadata).toEqual(METADATA);
      expect((await memory.list())[0]?.metadata).toEqual(METADATA);
      expect((await memory.recall("metadata travels"))[0]?.metadata).toEqual(METADATA);
      const exported = await memory.export();
      expect(exported[0]?.metadata).toEqual(METADATA);
      const copy = await open();
      await copy.import(exported);
      expect((await copy.get("k"))?.metadata).toEqual(METADATA);
    });

    it("an entry stored again without metadata has none; no metadata reads as absent", async () => {
      const memory = await open();
      await memory.store("k", "first", { metadata: { project: "alpha" } });
      await memory.store("k", "second");
      const entry = await memory.get("k");
      expect(entry?.content).toBe("second");
      expect(entry && "metadata" in entry).toBe(false);
    });

    it("bad metadata is INVALID_INPUT naming the path and writes nothing", async () => {
      const memory = await open();
      await expectInvalid(memory, "metadata", () => memory.store("k", "c", { metadata: ["a"] as never }));
      await expectInvalid(memory, "metadata.n", () =>
        memory.store("k", "c", { metadata: { n: Number.NaN } as never }),
      );
      await expectInvalid(memory, "entries[1].metadata.tags[0]", () =>
        memory.import([
          { key: "a", content: "fine", metadata: { ok: true } },
          { key: "b", content: "bad", metadata: { tags: [undefined] } as never },
        ]),
      );
      expect(await memory.get("a")).toBeNull();
    });
  });

  describe("where filters", () => {
    it("recall filters inside the search: limit 1 returns the best matching entry", async () => {
      const memory = await open();
      await seedProjects(memory);
      expect((await memory.recall("deploy pipeline", { limit: 1 }))[0]?.key).toBe("beta-best");
      const alpha = await memory.recall("deploy pipeline", { limit: 1, where: { project: "alpha" } });
      expect(alpha.map((e) => e.key)).toEqual(["alpha-deploy"]);
      expect(
        keysOf(
          await memory.recall("deploy pipeline", {
            limit: 10,
            where: { project: { $in: ["alpha", "gamma"] } },
          }),
        ),
      ).toEqual(["alpha-deploy", "alpha-other", "gamma"]);
      expect(
        keysOf(await memory.recall("pipeline", { limit: 10, where: { priority: { $gte: 3 } } })),
      ).toEqual(["alpha-other", "beta-best"]);
      expect(
        keysOf(await memory.recall("pipeline", { limit: 10, where: { project: { $ne: "alpha" } } })),
      ).toEqual(["beta-best", "gamma", "untagged"]);
      expect(keysOf(await memory.recall("pipeline", { limit: 10, where: { "owner.team": "web" } }))).toEqual([
        "gamma",
      ]);
      expect(
        keysOf(await memory.recall("pipeline", { limit: 10, where: { project: { $exists: false } } })),
      ).toEqual(["untagged"]);
      expect(await memory.recall("pipeline", { where: { project: "delta" } })).toEqual([]);
    });

    it("filters vector and hybrid recall the same way", async () => {
      const memory = await open({ embeddings: createHashingEmbeddingProvider({ dimensions: 64 }) });
      await seedProjects(memory);
      await memory.flush();
      for (const mode of ["embedding", "hybrid"] as const) {
        const found = await memory.recall("beta deploy pipeline nightly", {
          mode,
          limit: 1,
          where: { project: "alpha" },
        });
        expect([mode, found[0]?.metadata?.project]).toEqual([mode, "alpha"]);
      }
    });

    it("one filter's answer is never served for another (the recall cache keeps them apart)", async () => {
      const memory = await open({ settings: { hotCacheSize: 100 } });
      await seedProjects(memory);
      const keys = async (project: string) =>
        keysOf(await memory.recall("deploy pipeline", { limit: 10, where: { project } }));
      expect(await keys("alpha")).toEqual(["alpha-deploy", "alpha-other"]);
      expect(await keys("beta")).toEqual(["beta-best"]);
      expect(await keys("alpha")).toEqual(["alpha-deploy", "alpha-other"]);
    });

    it("list and export take a filter", async () => {
      const memory = await open();
      await seedProjects(memory);
      expect(keysOf(await memory.list({ where: { project: "alpha" } }))).toEqual([
        "alpha-deploy",
        "alpha-other",
      ]);
      expect(keysOf(await memory.export({ where: { priority: { $lt: 3 } } }))).toEqual(["alpha-deploy"]);
    });

    it("a filter it cannot mean is INVALID_INPUT naming the path", async () => {
      const memory = await open();
      const field = async (call: Promise<unknown>) =>
        call.then(
          () => "accepted",
          (error: unknown) => (isMemoryError(error, "INVALID_INPUT") ? error.field : String(error)),
        );
      expect(await field(memory.recall("q", { where: { project: { $like: "a%" } } as never }))).toBe(
        "where.project.$like",
      );
      expect(await field(memory.recall("q", { where: { $gt: 1 } as never }))).toBe("where.$gt");
      expect(await field(memory.list({ where: "project=alpha" as never }))).toBe("where");
      expect(await field(memory.export({ where: { tags: ["a"] } as never }))).toBe("where.tags");
    });
  });
}
