import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/memory-core",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
