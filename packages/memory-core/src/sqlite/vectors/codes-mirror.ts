import type { Database } from "better-sqlite3";
import type { MetaStore } from "../schema/meta-store.js";
import type { StatementCache } from "../schema/statement-cache.js";
import { BinaryCodes } from "./binary-codes.js";
import type { BuiltCodes } from "./codes-rebuild.js";
import { ENCODING_KEY, parseEncoding } from "./encoding-state.js";
import { type EncodedVector, VectorEncoder } from "./vector-encoder.js";

/** Share of the mirror that may be codes of deleted entries before it is read again whole. */
const MAX_STALE_SHARE = 0.1;

/**
 * One connection's view of the codes: the encoding stored in `meta` and the codes mirrored in
 * memory. `PRAGMA data_version` moves when another connection (a second process, a worker thread
 * with its own connection) has committed; then the encoding is read again, and a different one —
 * another connection rebuilt the codes — means the mirror is read again whole. Otherwise only the
 * codes written since (by `seq`) are read; codes of entries deleted elsewhere stay behind, which
 * only costs a pre-filter slot (the re-rank reads the entries), until they are a tenth of the
 * mirror and it is read again whole. Reading 10k codes whole after every write cost a reader
 * ~60 ms per recall. This connection's own writes keep the mirror current.
 */
export class CodesMirror {
  private built: BuiltCodes | null = null;
  private codes: BinaryCodes | null = null;
  /** data_version when `meta` was last read (-1: read it on next use), and when the codes were. */
  private metaVersion = -1;
  private codesVersion = -1;
  private seenSeq = 0;
  private readonly snapshot: () => { encoder: VectorEncoder; codes: BinaryCodes } | null;

  constructor(
    db: Database,
    private readonly statements: StatementCache,
    private readonly meta: MetaStore,
  ) {
    // One read transaction: the encoding and the codes come from the same commit.
    this.snapshot = db.transaction(() => this.refresh());
  }

  /** The encoding new codes must use, null while the store has none (before `ensure`). */
  encoding(): BuiltCodes | null {
    const version = this.dataVersion();
    if (version === this.metaVersion) return this.built;
    this.metaVersion = version;
    const raw = this.meta.get(ENCODING_KEY);
    if (raw === this.built?.raw) return this.built;
    const encoding = parseEncoding(raw);
    this.built =
      encoding === null || raw === undefined
        ? null
        : { raw, encoder: new VectorEncoder(encoding), codes: null };
    this.codes = null;
    return this.built;
  }

  /** The encoding with its codes brought up to date, read in one snapshot. */
  current(): { encoder: VectorEncoder; codes: BinaryCodes } | null {
    return this.snapshot();
  }

  private refresh(): { encoder: VectorEncoder; codes: BinaryCodes } | null {
    const built = this.encoding();
    if (built === null) return null;
    const version = this.metaVersion;
    let codes = this.codes;
    const count = () => this.statements.get("SELECT count(*) FROM memory_codes").pluck().get() as number;
    // Counted once per refresh: the stale check's count also sizes a whole read after it.
    let stored: number | undefined;
    if (codes !== null && version !== this.codesVersion) {
      this.read(codes, this.seenSeq);
      stored = count();
      if (codes.count - stored > codes.count * MAX_STALE_SHARE) codes = null;
    }
    if (codes === null) {
      codes = new BinaryCodes(built.encoder.words);
      codes.reserve(stored ?? count());
      this.seenSeq = 0;
      this.read(codes, -1);
    }
    this.codes = codes;
    this.codesVersion = version;
    return { encoder: built.encoder, codes };
  }

  /** Takes over an encoding this connection has just built (or found built) under the write lock. */
  adopt(built: BuiltCodes | null): void {
    this.built = built;
    this.codes = built?.codes ?? null;
    // Its own writes do not move this connection's data_version: what it holds is current.
    this.metaVersion = this.dataVersion();
    this.codesVersion = this.metaVersion;
    // A build writes seq 1..n.
    this.seenSeq = this.codes?.count ?? 0;
  }

  /** Notes a code this connection wrote. */
  set(rid: number, namespace: string, encoded: EncodedVector): void {
    this.codes?.set(rid, namespace, encoded);
  }

  delete(rid: number): void {
    this.codes?.delete(rid);
  }

  /** Forgets everything (a rolled-back transaction, cleared codes): the next use reads it again. */
  reset(): void {
    this.built = null;
    this.codes = null;
    this.metaVersion = -1;
    this.codesVersion = -1;
  }

  private dataVersion(): number {
    return this.statements.get("PRAGMA data_version").pluck().get() as number;
  }

  /** Adds to `into` the codes written after `afterSeq` (-1: all), and remembers the last seq seen. */
  private read(into: BinaryCodes, afterSeq: number): void {
    // A whole read (into an empty mirror) meets each rid once: memory_codes is keyed by rid.
    const whole = afterSeq < 0;
    for (const [rid, namespace, code, seq] of this.statements
      .get("SELECT rid, namespace, code, seq FROM memory_codes WHERE seq > ?")
      .raw()
      .iterate(afterSeq) as Iterable<[number, string, Buffer, number]>) {
      if (whole) into.appendStored(rid, namespace, code);
      else into.setStored(rid, namespace, code);
      if (seq > this.seenSeq) this.seenSeq = seq;
    }
  }
}
