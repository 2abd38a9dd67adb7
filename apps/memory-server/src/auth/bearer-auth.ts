// Bearer tokens: each configured token is kept only as its SHA-256 hash and compared in constant time.
import { createHash, timingSafeEqual } from "node:crypto";
import { MemoryError } from "@claw/memory-api";

/** One accepted token, as the composition root resolved it (from config or the environment). */
export interface ServerToken {
  token: string;
  /** Namespaces the token may use; undefined = every namespace. */
  namespaces?: readonly string[];
  readOnly?: boolean;
  /** Where it came from, e.g. "server.tokens[0]" or "CLAW_MEMORY_API_KEY"; used in logs and metrics. */
  name?: string;
}

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

export class TokenVerifier {
  private readonly stored: StoredToken[];

  constructor(tokens: readonly ServerToken[]) {
    this.stored = tokens.map((entry, index) => {
      if (typeof entry.token !== "string" || entry.token.trim() === "") {
        throw MemoryError.invalidInput(`tokens[${index}].token`, "must not be empty");
      }
      if (entry.namespaces !== undefined && entry.namespaces.length === 0) {
        throw MemoryError.invalidInput(`tokens[${index}].namespaces`, "expected at least one namespace");
      }
      const principal: Principal = Object.freeze({
        id: entry.name ?? `token-${index}`,
        ...(entry.namespaces === undefined ? {} : { namespaces: Object.freeze([...entry.namespaces]) }),
        readOnly: entry.readOnly === true,
      });
      return { hash: sha256(entry.token), principal };
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
