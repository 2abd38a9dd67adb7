import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/embeddings-onnx",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
  },
});
