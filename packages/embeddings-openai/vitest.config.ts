import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/embeddings-openai",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
