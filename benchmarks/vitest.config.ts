import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/benchmarks",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
