import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/memory-cli",
    include: ["src/**/*.test.ts"],
    // Many tests start the built binary (≈ 0.2 s each, more on a loaded CI machine).
    testTimeout: 60_000,
  },
});
