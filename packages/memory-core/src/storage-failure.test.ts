import { MemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { storageFailure, storageFailureCode } from "./storage-failure.js";

const coded = (code: string, message = "failed") => Object.assign(new Error(message), { code });

describe("storage failures are told apart by their code, not their message", () => {
  it.each([
    ["SQLITE_CORRUPT", "CORRUPT"],
    ["SQLITE_CORRUPT_VTAB", "CORRUPT"],
    ["SQLITE_NOTADB", "CORRUPT"],
    ["XX001", "CORRUPT"],
    ["XX002", "CORRUPT"],
    ["SQLITE_FULL", "STORAGE_FULL"],
    ["ENOSPC", "STORAGE_FULL"],
    ["EDQUOT", "STORAGE_FULL"],
    ["53100", "STORAGE_FULL"],
    ["SQLITE_IOERR", "STORAGE"],
    ["SQLITE_BUSY", "STORAGE"],
    ["EACCES", "STORAGE"],
  ])("%s is %s", (code, expected) => {
    expect(storageFailureCode(coded(code))).toBe(expected);
    expect(storageFailure(coded(code, "disk I/O")).code).toBe(expected);
  });

  it("reads the code through the cause chain, and ignores what the message says", () => {
    const wrapped = new Error("outer", { cause: new Error("middle", { cause: coded("SQLITE_FULL") }) });
    expect(storageFailureCode(wrapped)).toBe("STORAGE_FULL");
    expect(storageFailureCode(new Error("database disk image is malformed"))).toBe("STORAGE");
    expect(storageFailureCode(new Error("database or disk is full"))).toBe("STORAGE");
  });

  it("prefixes the message, keeps the cause, and makes a full disk retryable", () => {
    const cause = coded("SQLITE_FULL", "database or disk is full");
    const failure = storageFailure(cause, "cannot write");
    expect(failure.message).toBe("cannot write: database or disk is full");
    expect(failure.cause).toBe(cause);
    expect(failure.retryable).toBe(true);
    expect(storageFailure(coded("SQLITE_CORRUPT")).retryable).toBe(false);
  });

  it("passes MemoryErrors through unchanged", () => {
    const error = new MemoryError("NOT_FOUND", "gone");
    expect(storageFailure(error)).toBe(error);
  });

  it("classifies what better-sqlite3 really throws for a file that is not a database", () => {
    let thrown: unknown;
    try {
      // A buffer of noise is a database file SQLite cannot read.
      const noise = new Database(Buffer.alloc(8192, 0x5a));
      noise.prepare("SELECT count(*) FROM sqlite_schema").get();
      noise.close();
    } catch (error) {
      thrown = error;
    }
    expect((thrown as { code?: string }).code).toBe("SQLITE_NOTADB");
    expect(storageFailureCode(thrown)).toBe("CORRUPT");
  });
});
