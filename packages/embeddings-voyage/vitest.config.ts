import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/embeddings-voyage",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
