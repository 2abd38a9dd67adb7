import { defineConfig } from "vitest/config";

// One vitest project per package; `pnpm test` runs them through turbo, `pnpm vitest` all at once.
export default defineConfig({
  test: { projects: ["packages/*", "apps/*", "benchmarks", "examples/*"] },
});
