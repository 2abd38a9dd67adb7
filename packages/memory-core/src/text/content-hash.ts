import { createHash } from "node:crypto";

/** SHA-256 of the content, first 8 bytes as 16 hex characters (the seed's cache key). */
export function contentHash(content: string): string {
  return createHash("sha256").update(content, "utf8").digest("hex").slice(0, 16);
}
