import type { Metadata } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { loneSurrogateAt } from "../validate-input.js";

/** Largest metadata of one entry, as JSON in UTF-8 bytes. */
export const MAX_METADATA_BYTES = 16_384;
/** Deepest nesting of objects and arrays. */
const MAX_DEPTH = 16;

/**
 * An entry's metadata validated and copied (so later changes to the caller's object change nothing
 * stored): a JSON object of strings, finite numbers, booleans, null, arrays and objects, at most
 * MAX_METADATA_BYTES as JSON. Anything else is INVALID_INPUT naming the path (`metadata.tags[2]`).
 * Returns the copy and its JSON.
 */
export function metadataOf(
  value: unknown,
  field = "metadata",
): { metadata: Metadata; json: string } | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw MemoryError.invalidInput(field, "expected a JSON object");
  const metadata = copyOf(value, field, 0) as Metadata;
  const json = JSON.stringify(metadata);
  const bytes = Buffer.byteLength(json, "utf8");
  if (bytes > MAX_METADATA_BYTES) {
    throw MemoryError.invalidInput(
      field,
      `is ${bytes} bytes as JSON, over the limit of ${MAX_METADATA_BYTES}`,
    );
  }
  return { metadata, json };
}

function copyOf(value: unknown, at: string, depth: number): unknown {
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw MemoryError.invalidInput(at, "expected a finite number");
    return value;
  }
  if (typeof value === "string") {
    if (loneSurrogateAt(value) >= 0) throw MemoryError.invalidInput(at, "is not well-formed Unicode");
    return value;
  }
  if (depth >= MAX_DEPTH) throw MemoryError.invalidInput(at, `nests deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((item, i) => copyOf(item, `${at}[${i}]`, depth + 1));
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // As JSON.stringify does: a property set to undefined is no property.
      if (item === undefined) continue;
      if (loneSurrogateAt(key) >= 0)
        throw MemoryError.invalidInput(`${at}.${key}`, "is not well-formed Unicode");
      // defineProperty: a "__proto__" key stays a key instead of replacing the copy's prototype.
      Object.defineProperty(copy, key, {
        value: copyOf(item, `${at}.${key}`, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  throw MemoryError.invalidInput(at, `expected a JSON value, got ${typeof value}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
