import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../sqlite/test-support/temp-memory.js";
import { resolveFromCwd } from "./import-from-cwd.js";

/** A project folder with one installed package whose package.json is `manifest`. */
function project(manifest: Record<string, unknown>): string {
  const root = tempDir();
  const pkg = join(root, "node_modules", "@acme", "thing");
  mkdirSync(join(pkg, "dist"), { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "@acme/thing", ...manifest }));
  writeFileSync(join(pkg, "dist", "index.js"), "export const loaded = 42;\n");
  writeFileSync(join(root, "package.json"), "{}");
  return root;
}

describe("resolveFromCwd", () => {
  it("resolves an import-only exports map, which require.resolve cannot", async () => {
    const root = project({
      type: "module",
      exports: {
        ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
        "./package.json": "./package.json",
      },
    });
    const url = resolveFromCwd("@acme/thing", root);
    expect(url.endsWith("/node_modules/@acme/thing/dist/index.js")).toBe(true);
    expect(((await import(url)) as { loaded: number }).loaded).toBe(42);
  });

  it("does not need the package to export its package.json", async () => {
    const root = project({ type: "module", exports: { import: "./dist/index.js" } });
    expect(((await import(resolveFromCwd("@acme/thing", root))) as { loaded: number }).loaded).toBe(42);
  });

  it("falls back to main when there is no exports map", () => {
    const root = project({ main: "dist/index.js" });
    expect(resolveFromCwd("@acme/thing", root).endsWith("/@acme/thing/dist/index.js")).toBe(true);
  });

  it("throws for a package that is not installed", () => {
    expect(() => resolveFromCwd("@acme/missing", tempDir())).toThrow();
  });
});
