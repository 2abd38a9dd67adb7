import { defineProject } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineProject({
  test: { ...sharedTestOptions, name: "@claw/example-agent-chat", include: ["src/**/*.test.ts"] },
});
