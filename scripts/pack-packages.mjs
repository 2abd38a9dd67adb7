// Packs every public workspace package (what npm would publish) into `dir`, with `pnpm pack`,
// which turns `workspace:` and `catalog:` specifiers into real versions. Returns the tarballs.
// The packages must be built (`pnpm build`).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(new URL(".", import.meta.url).pathname, "..");

/** The public packages in dependency order (a package's dependencies come before it). */
export function publicPackages() {
  const dirs = ["packages", "apps"].flatMap((group) =>
    readdirSync(join(root, group)).map((name) => join(root, group, name)),
  );
  const manifests = dirs
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
    .filter(({ manifest }) => manifest.private !== true);
  const byName = new Map(manifests.map((p) => [p.manifest.name, p]));
  const ordered = [];
  const seen = new Set();
  const visit = (pkg) => {
    if (seen.has(pkg.manifest.name)) return;
    seen.add(pkg.manifest.name);
    const deps = {
      ...pkg.manifest.dependencies,
      ...pkg.manifest.peerDependencies,
      ...pkg.manifest.optionalDependencies,
    };
    for (const name of Object.keys(deps)) if (byName.has(name)) visit(byName.get(name));
    ordered.push(pkg);
  };
  for (const pkg of manifests) visit(pkg);
  return ordered;
}

export function packPackages(dir) {
  return publicPackages().map(({ dir: packageDir, manifest }) => {
    const out = execFileSync("pnpm", ["pack", "--pack-destination", dir], {
      cwd: packageDir,
      encoding: "utf8",
    });
    const tarball = out.trim().split("\n").pop();
    return { name: manifest.name, version: manifest.version, tarball: resolve(packageDir, tarball) };
  });
}
