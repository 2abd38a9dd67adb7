import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "@claw/memory-ai-sdk",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
