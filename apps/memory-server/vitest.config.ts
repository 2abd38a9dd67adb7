import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/memory-server",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
