import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/memory-workspace",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
