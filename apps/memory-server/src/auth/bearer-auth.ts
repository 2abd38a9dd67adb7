// Bearer tokens: each configured token is kept only as its SHA-256 hash and compared in constant time.
import { createHash, timingSafeEqual } from "node:crypto";
import { MemoryError } from "@claw/memory-api";

interface ServerTokenScope {
  /** Namespaces the token may use; undefined = every namespace. */
  namespaces?: readonly string[];
  readOnly?: boolean;
  /** Where it came from, e.g. "server.tokens[0]" or "CLAW_MEMORY_API_KEY"; used in logs and metrics. */
  name?: string;
}

/**
 * One accepted token, as the composition root resolved it (from config or the environment): the
 * token itself, or its SHA-256 digest as 64 hex digits (`token_sha256`). Either way only the digest
 * is kept.
 */
export type ServerToken = ServerTokenScope &
  ({ token: string; sha256?: undefined } | { sha256: string; token?: undefined });

/** Who is calling: never holds the token itself. */
export interface Principal {
  /** A stable label (the token's name, or "open" when no token is configured). */
  id: string;
  namespaces?: readonly string[];
  readOnly: boolean;
}

/** The caller when no token is configured (loopback only): every namespace, writes allowed. */
export const OPEN_PRINCIPAL: Principal = Object.freeze({ id: "open", readOnly: false });

interface StoredToken {
  hash: Buffer;
  principal: Principal;
}

const sha256 = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();
const SHA256_HEX = /^[0-9a-f]{64}$/i;

/** A token's SHA-256 digest as 64 lower-case hex digits: what `token_sha256` holds. */
export function tokenSha256(token: string): string {
  return sha256(token).toString("hex");
}

/**
 * Checks bearer tokens against the configured ones (by SHA-256, in constant time) and says whose they are.
 */
export class TokenVerifier {
  private readonly stored: StoredToken[];

  constructor(tokens: readonly ServerToken[]) {
    this.stored = tokens.map((entry, index) => {
      const hash = digestOf(entry, index);
      if (entry.namespaces !== undefined && entry.namespaces.length === 0) {
        throw MemoryError.invalidInput(`tokens[${index}].namespaces`, "expected at least one namespace");
      }
      const principal: Principal = Object.freeze({
        id: entry.name ?? `token-${index}`,
        ...(entry.namespaces === undefined ? {} : { namespaces: Object.freeze([...entry.namespaces]) }),
        readOnly: entry.readOnly === true,
      });
      return { hash, principal };
    });
  }

  /** No token configured: the server is open (and must stay on loopback). */
  get open(): boolean {
    return this.stored.length === 0;
  }

  /** The caller an `Authorization` header proves, or UNAUTHORIZED. */
  verify(header: string | undefined): Principal {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
    if (match === null) {
      throw new MemoryError(
        "UNAUTHORIZED",
        header === undefined ? "missing bearer token" : "expected Authorization: Bearer <token>",
      );
    }
    const presented = sha256(match[1] as string);
    // Every stored hash is compared, so the time taken does not say which one (if any) matched.
    let found: Principal | undefined;
    for (const entry of this.stored) {
      if (timingSafeEqual(entry.hash, presented) && found === undefined) found = entry.principal;
    }
    if (found === undefined) throw new MemoryError("UNAUTHORIZED", "invalid bearer token");
    return found;
  }
}

/** The 32-byte digest a token entry stands for: its `sha256`, or the hash of its `token`. */
function digestOf(entry: ServerToken, index: number): Buffer {
  if (entry.sha256 !== undefined) {
    if (entry.token !== undefined) {
      throw MemoryError.invalidInput(`tokens[${index}]`, "expected token or sha256, not both");
    }
    if (typeof entry.sha256 !== "string" || !SHA256_HEX.test(entry.sha256)) {
      throw MemoryError.invalidInput(`tokens[${index}].sha256`, "expected 64 hex digits");
    }
    return Buffer.from(entry.sha256, "hex");
  }
  if (typeof entry.token !== "string" || entry.token.trim() === "") {
    throw MemoryError.invalidInput(`tokens[${index}].token`, "must not be empty");
  }
  return sha256(entry.token);
}
