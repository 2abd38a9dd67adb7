import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "@claw/example-quickstart", include: ["src/**/*.test.ts"] },
});
