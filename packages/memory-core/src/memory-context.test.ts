import { join } from "node:path";
import type { TextGenerator } from "@claw/memory-api";
import { describe, expect, it, onTestFinished } from "vitest";
import { createMemory } from "./create-memory.js";
import { memoryContextOf } from "./memory-context.js";
import { NoneMemory } from "./none-memory.js";
import { tempDir } from "./sqlite/test-support/temp-memory.js";

describe("memory.context and memoryContextOf", () => {
  it("returns what createMemory resolved, before plugins' afterOpen runs", async () => {
    const workspaceDir = tempDir();
    const generator: TextGenerator = { generate: async () => "{}" };
    let seenInPlugin: unknown;
    const memory = await createMemory({
      workspaceDir,
      embeddings: null,
      generator,
      config: { conflictThreshold: 0.75 },
      plugins: [
        {
          name: "probe",
          afterOpen: async (m) => {
            seenInPlugin = memoryContextOf(m);
          },
        },
      ],
    });
    onTestFinished(() => memory.close());

    const context = memoryContextOf(memory);
    expect(context?.workspaceDir).toBe(workspaceDir);
    expect(context?.dbPath).toBe(join(workspaceDir, "brain.db"));
    expect(context?.config.memory.conflictThreshold).toBe(0.75);
    expect(context?.generator).toBe(generator);
    expect(seenInPlugin).toBe(context);
    // Explicit: the memory carries it, typed.
    expect(memory.context).toBe(context);
    expect(memory.context.config.memory.conflictThreshold).toBe(0.75);
  });

  it("gives plugins the typed config", async () => {
    let threshold: number | undefined;
    const memory = await createMemory({
      workspaceDir: tempDir(),
      embeddings: null,
      config: { conflictThreshold: 0.6 },
      plugins: [
        {
          name: "typed",
          beforeOpen: async (ctx) => {
            threshold = ctx.config.memory.conflictThreshold;
          },
        },
      ],
    });
    onTestFinished(() => memory.close());
    expect(threshold).toBe(0.6);
  });

  it("is undefined for a memory createMemory did not make", () => {
    expect(memoryContextOf(new NoneMemory())).toBeUndefined();
  });
});
