import { NibbleBlocks } from "./nibble-blocks.js";
import { TopScores } from "./top-scores.js";
import { blobToEncoded, type EncodedVector, type QueryTables } from "./vector-encoder.js";

/**
 * The codes of a store mirrored in memory (vector-encoder.ts), with the scan that picks the
 * candidates of vector search: every code's estimated cosine to the query, from table lookups of
 * its bits, and the best `count` are kept. The scan is linear, in WebAssembly SIMD over 4-bit
 * groups of 32 codes at a time (nibble-blocks.ts): ~15 ns a code at 384 dimensions with the
 * estimates (~7 ms for the sums of 1M codes); in JavaScript, where that is missing or a namespace
 * or a filter holds few of the codes, one lookup of a 256-entry float table per code byte, each
 * byte rebuilt from its two halves (~170 ns a code, 3× the word-at-a-time scan before the blocks).
 * The query stays in floats: on sentence-embedding-like vectors at 50k × 384 the 1000 candidates
 * held 0.99 of the exact top 10, where the hamming distance of such codes held 0.84 (0.92 with
 * 2000).
 */
export class BinaryCodes {
  private size = 0;
  /** The codes themselves, blocked for the SIMD scan. */
  private readonly blocks: NibbleBlocks;
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

  /**
   * `words`: 32-bit words per code (VectorEncoder.words). `simd: false` scans in JavaScript even
   * where WebAssembly SIMD runs.
   */
  constructor(
    readonly words: number,
    options: { simd?: boolean } = {},
  ) {
    this.blocks = new NibbleBlocks(words, options.simd !== false);
  }

  /** Where the scan of nearest() runs. */
  get scan(): "wasm-simd" | "js" {
    return this.blocks.scans ? "wasm-simd" : "js";
  }

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
    this.blocks.write(slot, encoded.code, 0);
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
   * Copies a stored code into `slot` from its bytes: loading 1M codes through an EncodedVector
   * each (a Uint32Array, a DataView and an object per code) took ~0.6 s more of a ~3.2 s read.
   */
  private writeStored(slot: number, blob: Buffer): void {
    const length = this.words * 4;
    if (blob.byteLength >= length + 8) {
      this.blocks.writeStored(slot, blob);
      this.inverseNorms[slot] = blob.readFloatLE(length);
      this.scales[slot] = blob.readFloatLE(length + 4);
    } else {
      const encoded = blobToEncoded(blob, this.words);
      this.blocks.write(slot, encoded.code, 0);
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
      this.blocks.copy(last, slot);
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
    // The SIMD scan reads every code: for a namespace of few codes, reading just those costs less.
    if (this.blocks.scans && (wanted === -1 || this.countIn(namespace) * SIMD_SHARE >= this.size)) {
      this.offerScanned(query, top, wanted, null);
      return this.ridsOf(top);
    }
    for (let slot = 0; slot < this.size; slot++) {
      if (wanted !== -1 && namespaces[slot] !== wanted) continue;
      const score = this.estimate(query, slot);
      if (score > top.floor) top.offer(score, slot);
    }
    return this.ridsOf(top);
  }

  /**
   * The same among the codes of `rids` only (those of a metadata filter): the scan reads just
   * their slots, or, when they are many, scans every code in WebAssembly and keeps theirs. Rids
   * without a code (no vector yet) are skipped.
   */
  nearestAmong(query: QueryTables, count: number, rids: readonly number[]): number[] {
    if (count <= 0) return [];
    const top = new TopScores(Math.min(count, this.size));
    const slots = this.slots();
    if (this.blocks.scans && rids.length * SIMD_SHARE >= this.size) {
      const keep = new Uint8Array(this.size);
      for (const rid of rids) {
        const slot = slots.get(rid);
        if (slot !== undefined) keep[slot] = 1;
      }
      this.offerScanned(query, top, -1, keep);
      return this.ridsOf(top);
    }
    for (const rid of rids) {
      const slot = slots.get(rid);
      if (slot === undefined) continue;
      const score = this.estimate(query, slot);
      if (score > top.floor) top.offer(score, slot);
    }
    return this.ridsOf(top);
  }

  /**
   * The scan in WebAssembly: the estimate of every code from its quantised sum, offered when its
   * namespace is `wanted` (any when -1) and, given `keep`, its slot is marked there.
   */
  private offerScanned(query: QueryTables, top: TopScores, wanted: number, keep: Uint8Array | null): void {
    const { namespaces, inverseNorms, scales } = this;
    const { sums, step, base } = this.blocks.scan(query.table, this.size);
    const { offset, total } = query;
    const twoSteps = 2 * step;
    const constant = 2 * base - total;
    for (let slot = 0; slot < this.size; slot++) {
      if ((wanted !== -1 && namespaces[slot] !== wanted) || (keep !== null && keep[slot] === 0)) continue;
      const score =
        (inverseNorms[slot] as number) * offset +
        (scales[slot] as number) * (twoSteps * (sums[slot] as number) + constant);
      if (score > top.floor) top.offer(score, slot);
    }
  }

  private ridsOf(top: TopScores): number[] {
    return Array.from(top.kept(), (slot) => this.rids[slot] as number);
  }

  /** The estimated cosine of the code in `slot` to the query, from the float tables. */
  private estimate(query: QueryTables, slot: number): number {
    const { table, total, offset } = query;
    // Σ of the query's rotated coordinates where the code has a 1, one byte at a time.
    const sum = this.blocks.tableSum(slot, table);
    return (this.inverseNorms[slot] as number) * offset + (this.scales[slot] as number) * (2 * sum - total);
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
    this.blocks.reserve(capacity);
    this.inverseNorms = grown(this.inverseNorms, new Float32Array(capacity));
    this.scales = grown(this.scales, new Float32Array(capacity));
    this.rids = grown(this.rids, new Float64Array(capacity));
    this.namespaces = grown(this.namespaces, new Int32Array(capacity));
  }
}

/**
 * A namespace's codes, or a metadata filter's, are scanned in WebAssembly when they are at least
 * 1 / SIMD_SHARE of all: that scan reads every code (~15 ns each with the estimates, at 300k ×
 * 384), JavaScript only theirs (~170 ns each).
 */
const SIMD_SHARE = 12;

function grown<T extends Float32Array | Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
