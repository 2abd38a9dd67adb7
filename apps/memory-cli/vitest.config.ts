import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/memory-cli",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
