import type { WhereFilter } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";

/**
 * A `where` filter given in a query string (JSON text), parsed; the library validates what it
 * means. Text that is not JSON is INVALID_INPUT naming `where`, a 400 like any bad filter.
 */
export function whereFromQuery(text: string | undefined): WhereFilter | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as WhereFilter;
  } catch {
    throw MemoryError.invalidInput("where", 'expected a JSON object, e.g. {"project":"alpha"}');
  }
}
