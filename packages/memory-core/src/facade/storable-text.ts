// What a backend cannot hold (PostgreSQL: U+0000), checked by the façade before anything is
// written or compared: refused as INVALID_INPUT naming the field, or, for a name that looks an
// entry up, simply not there.
import type { EntryFilter, EntryWrite, MemoryBackend } from "@claw/memory-api";

/** The text fields of a validated entry the backend must be able to hold. */
export function checkWrite(backend: MemoryBackend, write: EntryWrite, prefix: string): void {
  const checkText = backend.checkText;
  if (checkText === undefined) return;
  const field = (name: string) => (prefix === "" ? name : `${prefix}.${name}`);
  checkText(write.key, field("key"));
  checkText(write.content, field("content"));
  checkText(write.category, field("category"));
  checkText(write.namespace, field("namespace"));
  checkText(write.sessionId, field("sessionId"));
  checkText(write.supersededBy, field("supersededBy"));
  checkText(write.id, field("id"));
  checkText(write.source?.path, field("source.path"));
  checkText(write.context, field("context"));
  checkText(write.actor, field("actor"));
}

/** Filters are compared with stored text: one the backend cannot hold is refused. */
export function checkFilter(backend: MemoryBackend, filter: EntryFilter): void {
  const checkText = backend.checkText;
  if (checkText === undefined) return;
  checkText(filter.namespace, "namespace");
  checkText(filter.sessionId, "sessionId");
  for (const [i, category] of (filter.categories ?? []).entries()) checkText(category, `categories[${i}]`);
}

/** Whether the backend could hold this pair (a pair it cannot names no stored entry). */
export function storable(backend: MemoryBackend, namespace: string, key: string): boolean {
  const checkText = backend.checkText;
  if (checkText === undefined) return true;
  try {
    checkText(namespace, "namespace");
    checkText(key, "key");
    return true;
  } catch {
    return false; // refused text is simply not there
  }
}

/** The pairs the backend could hold. */
export function storableRefs(backend: MemoryBackend, pairs: [string, string][]): [string, string][] {
  return pairs.filter(([namespace, key]) => storable(backend, namespace, key));
}
