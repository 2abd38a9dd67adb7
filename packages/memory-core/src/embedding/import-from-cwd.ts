import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The file URL of an ESM package's main entry as installed for the project in `cwd`. `require.resolve`
 * cannot resolve packages whose `exports` offer only `import` (all of ours), so this finds the
 * package's folder on Node's lookup path and reads the entry from its package.json.
 */
export function resolveFromCwd(specifier: string, cwd: string): string {
  const require = createRequire(join(cwd, "package.json"));
  // The package's folder on Node's lookup path; its package.json need not be exported.
  const manifestPath = (require.resolve.paths(specifier) ?? [])
    .map((dir) => join(dir, specifier, "package.json"))
    .find((path) => existsSync(path));
  if (manifestPath === undefined) return pathToFileURL(require.resolve(specifier)).href; // throws: not installed
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
    exports?: unknown;
    module?: string;
    main?: string;
  };
  const entry = entryOf(manifest.exports) ?? manifest.module ?? manifest.main ?? "index.js";
  return pathToFileURL(join(dirname(manifestPath), entry)).href;
}

/** `"./dist/index.js"`, `{ ".": "…" }`, `{ ".": { import: "…" } }` or `{ import: "…" }` → the path. */
function entryOf(exports: unknown): string | undefined {
  if (typeof exports === "string") return exports;
  if (exports === null || typeof exports !== "object") return undefined;
  const map = exports as Record<string, unknown>;
  const root = "." in map ? map["."] : map;
  if (typeof root === "string") return root;
  if (root === null || typeof root !== "object") return undefined;
  const conditions = root as Record<string, unknown>;
  for (const condition of ["import", "node", "default"]) {
    const target = conditions[condition];
    if (typeof target === "string") return target;
    const nested = entryOf(target);
    if (nested !== undefined) return nested;
  }
  return undefined;
}
