import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "@claw/memory-postgres",
    include: ["src/**/*.test.ts"],
    passWithNoTests: true,
    // Each test file starts its own PGlite (WASM PostgreSQL, ~2 s); on a busy 2-core machine
    // running every package's tests at once, its queries are slower than vitest's defaults allow.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
