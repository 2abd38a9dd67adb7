import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/memory-postgres",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
