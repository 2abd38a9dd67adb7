import { MemoryError } from "@claw/memory-api";

/**
 * PostgreSQL text cannot hold U+0000 (SQLite can). Such input is refused as INVALID_INPUT naming
 * the field, before anything is written, instead of failing inside the database.
 */
export function assertStorableText(value: string | null | undefined, field: string): void {
  if (value?.includes("\u0000")) {
    throw MemoryError.invalidInput(
      field,
      "contains a NUL character (U+0000), which PostgreSQL text cannot hold",
    );
  }
}
