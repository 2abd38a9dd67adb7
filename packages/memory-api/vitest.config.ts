import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/memory-api",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
