import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/embeddings-gemini",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
