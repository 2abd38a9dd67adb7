import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/memory-lifecycle",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
