import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "@claw/example-agent-chat", include: ["src/**/*.test.ts"] },
});
