import { MemoryError } from "@claw/memory-api";
import type { EntryWrite } from "@claw/memory-core";

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

/** Every text field of a validated entry; `prefix` names it as toEntryWrite does (`entries[3]`). */
export function assertStorableEntry(write: EntryWrite, prefix: string): void {
  const field = (name: string) => (prefix === "" ? name : `${prefix}.${name}`);
  assertStorableText(write.key, field("key"));
  assertStorableText(write.content, field("content"));
  assertStorableText(write.category, field("category"));
  assertStorableText(write.namespace, field("namespace"));
  assertStorableText(write.sessionId, field("sessionId"));
  assertStorableText(write.supersededBy, field("supersededBy"));
  assertStorableText(write.id, field("id"));
  assertStorableText(write.source?.path, field("source.path"));
}
