import { it } from "vitest";
import { createMemory } from "./create-memory.js";
import { capturingLogger, tempDir } from "./sqlite/test-support/temp-memory.js";
it("p", async () => {
  for (const embeddingProvider of ["openai", "none"] as const) {
    const logger = capturingLogger();
    const m = await createMemory({ workspaceDir: tempDir(), config: { embeddingProvider }, logger, importModule: async (s) => { throw new Error(`nope ${s}`); } });
    await m.store("a", "Helix editor"); await m.recall("Helix");
    console.log(embeddingProvider, logger.warnings, await m.status());
    await m.close();
  }
});
