import type { MetaStore } from "../schema/meta-store.js";
import type { CodeEncoding } from "./vector-encoder.js";

/**
 * Where the codes' encoding lives in `meta`, and when it is due to be rebuilt. One key holds all
 * of it (the mean included), so a connection never reads the mean of one build with the `build`
 * id of another. A store whose key is missing or of another version has codes of an
 * older encoding (one raw sign bit per dimension, version 1) and rebuilds them.
 */
export const ENCODING_KEY = "codes_encoding";
/** Kept for older builds and tools that read it. */
export const DIMENSIONS_KEY = "codes_dimensions";
const VERSION = 2;

/** The rotation's seed: fixed, so that a store's codes do not depend on the process that built them. */
export const ROTATION_SEED = 0x5eed_0001;

/** The mean is recomputed once the store holds this many times the vectors it came from... */
export const GROWTH_FACTOR = 4;
/**
 * ...and at least this many: below it the mean of a handful of vectors means little, but the
 * pre-filter passes every vector anyway (vector-index.ts asks for at least 1000 candidates)...
 */
export const MIN_BASIS = 256;
/**
 * ...unless it came from this many already. A mean of 500 vectors found the same candidates as
 * the mean of all 100k (recall@10 0.999–1.000 on three kinds of vectors), so more adds nothing,
 * while re-encoding costs ~30 µs a vector: 262144 codes at 384 dimensions would be ~8 s of work
 * (in the background: codes-background-rebuild.ts) and a swap holding the write lock ~1.5 s.
 */
export const MAX_BASIS = 65536;

/**
 * The number of stored codes at which the encoding is rebuilt around a fresh mean: never beyond
 * MAX_BASIS, so a mean of more vectors than a quarter of it (a bulk import, a store rebuilt whole
 * on open) is not followed by a rebuild of four times as many codes.
 */
export function rebuildAt(encoding: CodeEncoding): number {
  if (encoding.basis >= MAX_BASIS) return Number.POSITIVE_INFINITY;
  return Math.min(MAX_BASIS, Math.max(MIN_BASIS, encoding.basis * GROWTH_FACTOR));
}

interface StoredEncoding {
  version: number;
  dimensions: number;
  seed: number;
  basis: number;
  build: string;
  /** Little-endian float32, base64. */
  mean: string;
}

export function serializeEncoding(encoding: CodeEncoding): string {
  const mean = Buffer.alloc(encoding.mean.length * 4);
  for (let i = 0; i < encoding.mean.length; i++) mean.writeFloatLE(encoding.mean[i] as number, i * 4);
  const stored: StoredEncoding = {
    version: VERSION,
    dimensions: encoding.dimensions,
    seed: encoding.seed,
    basis: encoding.basis,
    build: encoding.build,
    mean: mean.toString("base64"),
  };
  return JSON.stringify(stored);
}

/** The encoding stored as `raw`, or null when it is absent, of another version or unreadable. */
export function parseEncoding(raw: string | undefined): CodeEncoding | null {
  if (raw === undefined) return null;
  let stored: Partial<StoredEncoding>;
  try {
    stored = JSON.parse(raw) as Partial<StoredEncoding>;
  } catch {
    return null;
  }
  const { version, dimensions, seed, basis, build, mean } = stored;
  if (version !== VERSION || typeof mean !== "string" || typeof build !== "string") return null;
  if (!isCount(dimensions) || dimensions === 0 || !isCount(seed) || !isCount(basis)) return null;
  const bytes = Buffer.from(mean, "base64");
  if (bytes.byteLength !== dimensions * 4) return null;
  const values = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) values[i] = bytes.readFloatLE(i * 4);
  return { dimensions, seed, basis, build, mean: values };
}

export function writeEncoding(meta: MetaStore, encoding: CodeEncoding): void {
  meta.set(ENCODING_KEY, serializeEncoding(encoding));
  meta.set(DIMENSIONS_KEY, String(encoding.dimensions));
}

export function deleteEncoding(meta: MetaStore): void {
  meta.delete(ENCODING_KEY);
  meta.delete(DIMENSIONS_KEY);
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}
