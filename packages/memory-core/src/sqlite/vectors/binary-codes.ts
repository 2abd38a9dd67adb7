import { TopScores } from "./top-scores.js";
import { blobToEncoded, type EncodedVector, type QueryTables } from "./vector-encoder.js";

/** Stored codes are little-endian: on such a host they are copied into the mirror as they are. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * The codes of a store mirrored in memory (vector-encoder.ts), with the scan that picks the
 * candidates of vector search: for every code, 4 table lookups per 32-bit word give the estimated
 * cosine to the query, and the best `count` are kept. The scan is linear: ~3 ms at 50k × 384, and
 * ~45 ms of CPU at 1M × 384 (1M × 512 bits: ~60 ms), on a busy 2-core machine. The table lookups
 * cost ~1.4 times a popcount of the same codes, but the query stays in floats: on
 * sentence-embedding-like vectors at 50k × 384 the 1000 candidates held 0.99 of the exact top
 * 10, where the hamming distance of such codes held 0.84 (0.92 with 2000). (sqlite-vec 0.1's
 * vec0 KNN over bit vectors took 49 ms at k = 400 and 163 ms at k = 1000 at 100k × 768.)
 */
export class BinaryCodes {
  private size = 0;
  private codes = new Uint32Array(0);
  /** The same memory as bytes, for codes copied from their stored form. */
  private codeBytes = new Uint8Array(0);
  private inverseNorms = new Float32Array(0);
  private scales = new Float32Array(0);
  private rids = new Float64Array(0);
  private namespaces = new Int32Array(0);
  /**
   * Slot of each rid; null after codes were appended by a whole read, until something looks a rid
   * up (slots()): a recall that scans every code never needs it, and building it took ~0.6 s of
   * a 1M-code read.
   */
  private slotOf: Map<number, number> | null = new Map<number, number>();
  private readonly namespaceIds = new Map<string, number>();
  /** Codes per namespace id. */
  private readonly perNamespace: number[] = [];

  /** `words`: 32-bit words per code (VectorEncoder.words). */
  constructor(readonly words: number) {}

  get count(): number {
    return this.size;
  }

  /** How many codes a search within `namespace` (every one when undefined) would scan. */
  countIn(namespace?: string): number {
    if (namespace === undefined) return this.size;
    const id = this.namespaceIds.get(namespace);
    return id === undefined ? 0 : (this.perNamespace[id] ?? 0);
  }

  set(rid: number, namespace: string, encoded: EncodedVector): void {
    const slot = this.slotFor(rid, namespace);
    this.codes.set(encoded.code.subarray(0, this.words), slot * this.words);
    this.inverseNorms[slot] = encoded.inverseNorm;
    this.scales[slot] = encoded.scale;
  }

  /** The same from a code as `memory_codes` stores it (encodedToBlob()). */
  setStored(rid: number, namespace: string, blob: Buffer): void {
    this.writeStored(this.slotFor(rid, namespace), blob);
  }

  /**
   * setStored() for a rid known to have no code here (a whole read of `memory_codes`, whose rids
   * are unique): no lookup, and the slot index is built later, if ever.
   */
  appendStored(rid: number, namespace: string, blob: Buffer): void {
    this.slotOf = null;
    const slot = this.appendSlot(rid);
    const id = this.namespaceId(namespace);
    this.counted(id, 1);
    this.namespaces[slot] = id;
    this.writeStored(slot, blob);
  }

  /** Makes room for `count` codes in all (before a whole read). */
  reserve(count: number): void {
    this.grow(count);
  }

  /** The slot of `rid` (a new one at the end when it has none), counted in `namespace`. */
  private slotFor(rid: number, namespace: string): number {
    const slots = this.slots();
    let slot = slots.get(rid);
    if (slot === undefined) {
      slot = this.appendSlot(rid);
      slots.set(rid, slot);
    } else {
      this.counted(this.namespaces[slot] as number, -1);
    }
    const id = this.namespaceId(namespace);
    this.counted(id, 1);
    this.namespaces[slot] = id;
    return slot;
  }

  /**
   * Copies a stored code into `slot` as it is: loading 1M codes through an EncodedVector each (a
   * Uint32Array, a DataView and an object per code) took ~0.6 s more of a ~3.2 s read.
   */
  private writeStored(slot: number, blob: Buffer): void {
    const length = this.words * 4;
    if (LITTLE_ENDIAN && blob.byteLength >= length + 8) {
      this.codeBytes.set(blob.subarray(0, length), slot * length);
      this.inverseNorms[slot] = blob.readFloatLE(length);
      this.scales[slot] = blob.readFloatLE(length + 4);
    } else {
      const encoded = blobToEncoded(blob, this.words);
      this.codes.set(encoded.code, slot * this.words);
      this.inverseNorms[slot] = encoded.inverseNorm;
      this.scales[slot] = encoded.scale;
    }
  }

  private appendSlot(rid: number): number {
    const slot = this.size++;
    this.grow(this.size);
    this.rids[slot] = rid;
    return slot;
  }

  private slots(): Map<number, number> {
    if (this.slotOf === null) {
      this.slotOf = new Map();
      for (let slot = 0; slot < this.size; slot++) this.slotOf.set(this.rids[slot] as number, slot);
    }
    return this.slotOf;
  }

  delete(rid: number): void {
    const slots = this.slots();
    const slot = slots.get(rid);
    if (slot === undefined) return;
    this.counted(this.namespaces[slot] as number, -1);
    const last = --this.size;
    if (slot !== last) {
      // Swap-remove keeps the arrays dense so the scan never skips holes.
      const lastRid = this.rids[last] as number;
      this.rids[slot] = lastRid;
      this.namespaces[slot] = this.namespaces[last] as number;
      this.inverseNorms[slot] = this.inverseNorms[last] as number;
      this.scales[slot] = this.scales[last] as number;
      this.codes.copyWithin(slot * this.words, last * this.words, (last + 1) * this.words);
      slots.set(lastRid, slot);
    }
    slots.delete(rid);
  }

  /**
   * The rids of the `count` codes with the highest estimated cosine to the query, optionally
   * within one namespace, in no particular order.
   */
  nearest(query: QueryTables, count: number, namespace?: string): number[] {
    const wanted = namespace === undefined ? -1 : (this.namespaceIds.get(namespace) ?? -2);
    if (wanted === -2 || count <= 0) return [];
    const { namespaces } = this;
    const top = new TopScores(Math.min(count, this.size));
    for (let slot = 0; slot < this.size; slot++) {
      if (wanted !== -1 && namespaces[slot] !== wanted) continue;
      const score = this.estimate(query, slot);
      if (score > top.floor) top.offer(score, slot);
    }
    return Array.from(top.kept(), (slot) => this.rids[slot] as number);
  }

  /**
   * The same among the codes of `rids` only (those of a metadata filter): the scan reads just
   * their slots. Rids without a code (no vector yet) are skipped.
   */
  nearestAmong(query: QueryTables, count: number, rids: Iterable<number>): number[] {
    if (count <= 0) return [];
    const top = new TopScores(Math.min(count, this.size));
    const slots = this.slots();
    for (const rid of rids) {
      const slot = slots.get(rid);
      if (slot === undefined) continue;
      const score = this.estimate(query, slot);
      if (score > top.floor) top.offer(score, slot);
    }
    return Array.from(top.kept(), (slot) => this.rids[slot] as number);
  }

  /** The estimated cosine of the code in `slot` to the query. */
  private estimate(query: QueryTables, slot: number): number {
    const { words, codes, inverseNorms, scales } = this;
    const { table, total, offset } = query;
    // Σ of the query's rotated coordinates where the code has a 1, one byte at a time.
    let sum = 0;
    for (let w = slot * words, end = w + words, t = 0; w < end; w++, t += 1024) {
      const x = codes[w] as number;
      sum +=
        (table[t | (x & 255)] as number) +
        (table[t + 256 + ((x >>> 8) & 255)] as number) +
        (table[t + 512 + ((x >>> 16) & 255)] as number) +
        (table[t + 768 + (x >>> 24)] as number);
    }
    return (inverseNorms[slot] as number) * offset + (scales[slot] as number) * (2 * sum - total);
  }

  private counted(namespaceId: number, change: number): void {
    this.perNamespace[namespaceId] = (this.perNamespace[namespaceId] ?? 0) + change;
  }

  private namespaceId(namespace: string): number {
    let id = this.namespaceIds.get(namespace);
    if (id === undefined) {
      id = this.namespaceIds.size;
      this.namespaceIds.set(namespace, id);
    }
    return id;
  }

  private grow(needed: number): void {
    if (needed <= this.rids.length) return;
    const capacity = Math.max(1024, this.rids.length * 2, needed);
    const codes = new Uint32Array(capacity * this.words);
    codes.set(this.codes);
    this.codes = codes;
    this.codeBytes = new Uint8Array(codes.buffer);
    this.inverseNorms = grown(this.inverseNorms, new Float32Array(capacity));
    this.scales = grown(this.scales, new Float32Array(capacity));
    this.rids = grown(this.rids, new Float64Array(capacity));
    this.namespaces = grown(this.namespaces, new Int32Array(capacity));
  }
}

function grown<T extends Float32Array | Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
