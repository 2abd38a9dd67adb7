#!/usr/bin/env node
// `pnpm install-cli [--prefix DIR] [--no-build]`: builds the packages, packs them as npm would
// publish them, installs the tarballs into DIR/lib/claw-memory with plain npm, and links the
// `claw-memory` and `claw-memory-server` commands into DIR/bin (default prefix: ~/.local, whose
// bin folder is on PATH on most systems). Local ONNX embeddings and PostgreSQL are optional: when
// their packages cannot be installed here (onnxruntime-node downloads its binaries from outside
// the npm registry), the commands work without them and say what to install when configured.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { packPackages } from "./pack-packages.mjs";

/** Packages the commands run without: installed when they can be. */
const OPTIONAL = new Set(["@claw/embeddings-onnx", "@claw/memory-postgres"]);
/**
 * Libraries for agent frameworks: the commands never use them, and their peers (the frameworks)
 * do not belong in the commands' install. Packed into tarballs/ with the others, not installed.
 */
export const FRAMEWORK_ADAPTERS = new Set(["@claw/memory-ai-sdk", "@claw/memory-langchain"]);
const BINS = {
  "claw-memory": "@claw/memory-cli/bin/claw-memory.js",
  "claw-memory-server": "@claw/memory-server/bin/claw-memory-server.js",
};

export function installCli({ prefix, build = true, log = (line) => process.stderr.write(`${line}\n`) }) {
  const root = resolve(new URL(".", import.meta.url).pathname, "..");
  if (build) {
    log("building the packages (pnpm build)");
    execFileSync("pnpm", ["build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  }
  const libDir = join(prefix, "lib", "claw-memory");
  const binDir = join(prefix, "bin");
  rmSync(libDir, { recursive: true, force: true });
  mkdirSync(join(libDir, "tarballs"), { recursive: true });
  mkdirSync(binDir, { recursive: true });
  const packDir = mkdtempSync(join(tmpdir(), "claw-pack-"));
  const packed = packPackages(packDir);
  const dependencies = {};
  const optionalDependencies = {};
  /** Every package's tarball as kept in DIR/lib/claw-memory/tarballs, by name. */
  const tarballs = new Map();
  for (const { name, tarball } of packed) {
    const kept = join(libDir, "tarballs", basename(tarball));
    copyFileSync(tarball, kept);
    tarballs.set(name, kept);
    if (FRAMEWORK_ADAPTERS.has(name)) continue;
    (OPTIONAL.has(name) ? optionalDependencies : dependencies)[name] = `file:${kept}`;
  }
  rmSync(packDir, { recursive: true, force: true });
  writeFileSync(
    join(libDir, "package.json"),
    `${JSON.stringify({ name: "claw-memory-install", private: true, dependencies, optionalDependencies }, null, 2)}\n`,
  );
  const installed = Object.keys(dependencies).length + Object.keys(optionalDependencies).length;
  log(`installing ${installed} packages into ${libDir} (npm install)`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--omit=dev", "--loglevel=error"], {
    cwd: libDir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (const [command, target] of Object.entries(BINS)) {
    const link = join(binDir, command);
    rmSync(link, { force: true });
    symlinkSync(join(libDir, "node_modules", target), link);
  }
  log(
    `installed: ${Object.keys(BINS)
      .map((c) => join(binDir, c))
      .join(", ")}`,
  );
  return { binDir, libDir, packages: packed, tarballs };
}

if (
  process.argv[1] !== undefined &&
  resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)
) {
  const { values } = parseArgs({
    options: { prefix: { type: "string" }, "no-build": { type: "boolean", default: false } },
  });
  const prefix = resolve(values.prefix ?? join(homedir(), ".local"));
  const { binDir } = installCli({ prefix, build: !values["no-build"] });
  const path = (process.env.PATH ?? "").split(":");
  if (!path.includes(binDir)) process.stderr.write(`add ${binDir} to PATH to run claw-memory\n`);
}
