import type { MemoryCategory } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { toIsoTimestamp } from "./timestamps.js";

/** Argument checks shared by every backend: each failure is INVALID_INPUT naming the field. */

export function requireText(value: unknown, field: string, maxBytes?: number): string {
  if (typeof value !== "string") {
    throw MemoryError.invalidInput(field, `expected a string, got ${describe(value)}`);
  }
  if (value.trim() === "") throw MemoryError.invalidInput(field, "must not be empty");
  // isWellFormed() is native; the regex runs only to name the place for the message.
  if (!value.isWellFormed()) {
    // Stored as UTF-8 it would come back altered, and the entry could not be found by it again.
    const lone = loneSurrogateAt(value);
    throw MemoryError.invalidInput(field, `is not well-formed Unicode (a lone surrogate at index ${lone})`);
  }
  // A UTF-16 unit is at most 3 bytes of UTF-8 (a pair, 2 units, is 4): only text that may be over
  // the limit is measured.
  if (maxBytes !== undefined && value.length * 3 > maxBytes) {
    const bytes = Buffer.byteLength(value, "utf8");
    if (bytes > maxBytes) {
      throw MemoryError.invalidInput(field, `is ${bytes} bytes, over the limit of ${maxBytes} bytes`);
    }
  }
  return value;
}

/** Text checked as requireText does, or undefined when absent. */
export function optionalText(value: unknown, field: string, maxBytes = 1024): string | undefined {
  if (value === undefined || value === null) return undefined;
  return requireText(value, field, maxBytes);
}

/** A namespace name; "*" (every namespace) only where the caller allows it. */
export function namespaceOf(value: unknown, field: string, allowAll: boolean): string {
  if (value === undefined || value === null) return "default";
  const namespace = requireText(value, field, 256);
  if (namespace === "*" && !allowAll) throw MemoryError.invalidInput(field, '"*" is not allowed here');
  return namespace;
}

/** A category name (any non-empty text up to 128 bytes); `fallback` when absent. */
export function categoryOf(value: unknown, field: string, fallback: MemoryCategory = "core"): MemoryCategory {
  if (value === undefined || value === null) return fallback;
  return requireText(value, field, 128);
}

/** An importance from 0 to 1, or undefined when absent. */
export function importanceOf(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw MemoryError.invalidInput(field, `expected a number from 0 to 1, got ${describe(value)}`);
  }
  return value;
}

/** A positive whole number, capped at `max` (absurd limits are clamped, not refused). */
export function limitOf(value: unknown, field: string, fallback: number, max: number): number {
  if (value === undefined || value === null) return Math.min(fallback, max);
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw MemoryError.invalidInput(field, `expected a positive whole number, got ${describe(value)}`);
  }
  return Math.min(value, max);
}

/** A whole number ≥ 0; 0 when absent. */
export function offsetOf(value: unknown, field: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw MemoryError.invalidInput(field, `expected a whole number ≥ 0, got ${describe(value)}`);
  }
  return value;
}

/** An RFC 3339 string or a Date as an RFC 3339 timestamp, or undefined when absent. */
export function dateOf(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" && !(value instanceof Date)) {
    throw MemoryError.invalidInput(field, `expected an RFC 3339 string or a Date, got ${describe(value)}`);
  }
  return toIsoTimestamp(value, field);
}

/** An RFC 3339 string or a Date as a Date (e.g. RecallOptions.now), or undefined. */
export function instantOf(value: unknown, field: string): Date | undefined {
  const iso = dateOf(value, field);
  return iso === undefined ? undefined : new Date(iso);
}

/** A list of category names, or undefined when absent. */
export function categoriesOf(value: unknown, field: string): MemoryCategory[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value))
    throw MemoryError.invalidInput(field, `expected an array, got ${describe(value)}`);
  return value.map((c, i) => categoryOf(c, `${field}[${i}]`));
}

/** A number (not NaN), or undefined when absent. */
export function optionalNumber(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || Number.isNaN(value)) {
    throw MemoryError.invalidInput(field, `expected a number, got ${describe(value)}`);
  }
  return value;
}

/** A boolean, or undefined when absent. */
export function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean")
    throw MemoryError.invalidInput(field, `expected a boolean, got ${describe(value)}`);
  return value;
}

/** The options argument of a Memory method: absent = {}; anything but a plain object is refused. */
export function optionsOf<T extends object>(value: T | undefined, field = "options"): T {
  if (value === undefined) return {} as T;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw MemoryError.invalidInput(field, `expected an object, got ${describe(value)}`);
  }
  return value;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The index of the first unpaired UTF-16 surrogate in `text`, or -1 when it is well formed. */
export function loneSurrogateAt(text: string): number {
  const match = LONE_SURROGATE.exec(text);
  return match === null ? -1 : match.index;
}

/** `text` with every unpaired surrogate replaced by U+FFFD (what String#toWellFormed does). */
export function wellFormed(text: string): string {
  return loneSurrogateAt(text) < 0 ? text : text.replace(new RegExp(LONE_SURROGATE.source, "g"), "\uFFFD");
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return value.length > 40 ? `"${value.slice(0, 40)}…"` : JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return `a ${typeof value}`;
}
