import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: {
    ...sharedTestOptions,
    name: "@claw/memory-langchain",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
