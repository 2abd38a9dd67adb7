import { describe, expect, it } from "vitest";
import {
  expectInvalid,
  keysOf,
  type MemoryContractHarness,
  manualClock,
  openContractMemory,
} from "./contract-harness.js";

const HOUR = 3_600_000;

async function streamed<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** StoreOptions.expiresAt / ttl: an expired entry is gone from every read; purgeExpired deletes it. */
export function describeExpiryContract(harness: MemoryContractHarness): void {
  const open = (options = {}) => openContractMemory(harness, options);

  describe("expiry", () => {
    it("an expired entry is never got, recalled, listed, exported, counted or in the core block", async () => {
      const clock = manualClock("2026-05-01T08:00:00.000Z");
      const memory = await open({ now: clock.now });
      const stored = await memory.store("door-code", "the door code is 4711", {
        ttl: "1d",
        category: "core",
      });
      expect(stored.expiresAt).toBe("2026-05-02T08:00:00.000Z");
      await memory.store("door-colour", "the door is painted green", {
        expiresAt: new Date("2026-05-01T10:00:00.000Z"),
      });
      await memory.store("door-size", "the door is two metres tall");
      const reads = async () => ({
        get: (await memory.get("door-code"))?.key ?? null,
        recall: keysOf(await memory.recall("door", { limit: 10 })),
        recent: keysOf(await memory.recall("", { limit: 10 })),
        list: keysOf(await memory.list()),
        export: keysOf(await memory.export()),
        stream: keysOf(await streamed(memory.exportStream())),
        count: await memory.count(),
        core: keysOf(await memory.topCoreMemories(10)),
      });
      expect((await reads()).recall).toEqual(["door-code", "door-colour", "door-size"]);
      expect((await memory.get("door-code"))?.expiresAt).toBe("2026-05-02T08:00:00.000Z");

      clock.advance(3 * HOUR); // door-colour expired at 10:00
      const afterColour = await reads();
      expect(afterColour.recall).toEqual(["door-code", "door-size"]);
      expect(afterColour.list).toEqual(["door-code", "door-size"]);
      expect(afterColour.count).toBe(2);

      clock.advance(24 * HOUR); // door-code too
      expect(await reads()).toEqual({
        get: null,
        recall: ["door-size"],
        recent: ["door-size"],
        list: ["door-size"],
        export: ["door-size"],
        stream: ["door-size"],
        count: 1,
        core: ["door-size"],
      });

      // purgeExpired deletes them, each leaving an "expire" tombstone by whoever ran it.
      expect(await memory.purgeExpired({ actor: "hygiene" })).toBe(2);
      expect(await memory.purgeExpired()).toBe(0);
      const history = await memory.history("door-code");
      expect(history.map((v) => [v.version, v.action, v.actor, v.deleted])).toEqual([
        [2, "expire", "hygiene", true],
        [1, "create", "library", false],
      ]);
      expect(history[1]?.expiresAt).toBe("2026-05-02T08:00:00.000Z");
    });

    it("a cached recall stops returning an entry the moment it expires", async () => {
      const clock = manualClock("2026-05-01T08:00:00.000Z");
      const memory = await open({ now: clock.now });
      await memory.store("parking", "parked on level 3, spot 42", { ttl: "2h" });
      await memory.store("parking-note", "parking level 3 is for visitors");
      expect(keysOf(await memory.recall("parking level 3"))).toEqual(["parking", "parking-note"]);
      clock.advance(HOUR);
      expect(keysOf(await memory.recall("parking level 3"))).toEqual(["parking", "parking-note"]);
      clock.advance(HOUR);
      expect(keysOf(await memory.recall("parking level 3"))).toEqual(["parking-note"]);
    });

    it("storing again without an expiry keeps the entry; import carries expiresAt; restore drops a past one", async () => {
      const clock = manualClock("2026-05-01T08:00:00.000Z");
      const memory = await open({ now: clock.now });
      await memory.store("wifi", "guest wifi password is tulip", { ttl: "7d" });
      await memory.store("wifi", "guest wifi password is tulip");
      expect((await memory.get("wifi"))?.expiresAt).toBeUndefined();
      expect((await memory.history("wifi")).map((v) => v.action)).toEqual(["update", "create"]);

      await memory.store("promo", "promo code SPRING", { ttl: "1h" });
      const exported = await memory.export();
      const copy = await open({ now: clock.now });
      await copy.import(exported);
      expect((await copy.get("promo"))?.expiresAt).toBe("2026-05-01T09:00:00.000Z");

      clock.advance(2 * HOUR);
      expect(await memory.get("promo")).toBeNull();
      // Its version 1 had an expiry that has passed: restored, it does not vanish again.
      const restored = await memory.restore("promo", 1);
      expect(restored.expiresAt).toBeUndefined();
      expect((await memory.get("promo"))?.content).toBe("promo code SPRING");
      // An import keeps an expiry in the past (hygiene removes such entries).
      await copy.import([{ key: "stale", content: "an old offer", expiresAt: "2026-04-01T00:00:00.000Z" }]);
      expect(await copy.get("stale")).toBeNull();
      expect(await copy.purgeExpired()).toBe(2);
    });

    it("refuses an expiry in the past, both expiresAt and ttl, and a ttl that is not an age", async () => {
      const clock = manualClock("2026-05-01T08:00:00.000Z");
      const memory = await open({ now: clock.now });
      await expectInvalid(memory, "expiresAt", () =>
        memory.store("k", "v", { expiresAt: "2026-05-01T07:59:59.000Z" }),
      );
      await expectInvalid(memory, "expiresAt", () => memory.store("k", "v", { expiresAt: "tomorrow" }));
      await expectInvalid(memory, "ttl", () =>
        memory.store("k", "v", { ttl: "1d", expiresAt: "2026-06-01T00:00:00.000Z" }),
      );
      await expectInvalid(memory, "ttl", () => memory.store("k", "v", { ttl: "soon" }));
      await expectInvalid(memory, "ttl", () => memory.store("k", "v", { ttl: "0d" }));
      await expectInvalid(memory, "entries[0].expiresAt", () =>
        memory.import([{ key: "k", content: "v", expiresAt: 5 as unknown as string }]),
      );
    });
  });
}
