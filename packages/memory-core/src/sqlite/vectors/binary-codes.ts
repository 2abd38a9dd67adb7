/**
 * In-memory binary codes (one sign bit per dimension) with a hamming-distance scan: the
 * pre-filter of vector search. At 100k × 768 a JavaScript popcount scan over the packed codes
 * takes ~6 ms whatever the number of candidates, where sqlite-vec 0.1's vec0 KNN over bit vectors
 * takes 49 ms at k = 400 and 163 ms at k = 1000 (measured here); exact cosine then re-ranks.
 */
export class BinaryCodes {
  private words = 0;
  private size = 0;
  private codes = new Uint32Array(0);
  private rids = new Float64Array(0);
  private namespaces = new Int32Array(0);
  private readonly slotOf = new Map<number, number>();
  private readonly namespaceIds = new Map<string, number>();

  constructor(readonly dimensions: number) {
    this.words = Math.ceil(dimensions / 32);
  }

  get count(): number {
    return this.size;
  }

  /** The packed code of a float32 vector given as a little-endian BLOB or a Float32Array. */
  encode(vector: Float32Array | Uint8Array): Uint32Array {
    return encodeBinary(vector, this.dimensions);
  }

  set(rid: number, namespace: string, code: Uint32Array): void {
    let slot = this.slotOf.get(rid);
    if (slot === undefined) {
      slot = this.size++;
      this.grow(this.size);
      this.slotOf.set(rid, slot);
      this.rids[slot] = rid;
    }
    this.namespaces[slot] = this.namespaceId(namespace);
    this.codes.set(code.subarray(0, this.words), slot * this.words);
  }

  delete(rid: number): void {
    const slot = this.slotOf.get(rid);
    if (slot === undefined) return;
    const last = --this.size;
    if (slot !== last) {
      // Swap-remove keeps the arrays dense so the scan never skips holes.
      const lastRid = this.rids[last] as number;
      this.rids[slot] = lastRid;
      this.namespaces[slot] = this.namespaces[last] as number;
      this.codes.copyWithin(slot * this.words, last * this.words, (last + 1) * this.words);
      this.slotOf.set(lastRid, slot);
    }
    this.slotOf.delete(rid);
  }

  /**
   * The rids of the `count` codes nearest to `query` in hamming distance, optionally within one
   * namespace. Distances are small integers, so a histogram finds the cut-off in linear time.
   */
  nearest(query: Uint32Array, count: number, namespace?: string): number[] {
    const words = this.words;
    const wanted = namespace === undefined ? -1 : (this.namespaceIds.get(namespace) ?? -2);
    if (wanted === -2 || count <= 0) return [];
    const distances = new Uint16Array(this.size);
    const histogram = new Uint32Array(this.dimensions + 1);
    const codes = this.codes;
    for (let slot = 0; slot < this.size; slot++) {
      if (wanted !== -1 && this.namespaces[slot] !== wanted) {
        distances[slot] = OUTSIDE;
        continue;
      }
      let distance = 0;
      const base = slot * words;
      for (let w = 0; w < words; w++)
        distance += popcount((codes[base + w] as number) ^ (query[w] as number));
      distances[slot] = distance;
      histogram[distance] = (histogram[distance] as number) + 1;
    }
    let cutoff = 0;
    for (let seen = 0; cutoff < this.dimensions; cutoff++) {
      seen += histogram[cutoff] as number;
      if (seen >= count) break;
    }
    const out: number[] = [];
    const atCutoff: number[] = [];
    for (let slot = 0; slot < this.size; slot++) {
      const distance = distances[slot] as number;
      if (distance < cutoff) out.push(this.rids[slot] as number);
      else if (distance === cutoff) atCutoff.push(this.rids[slot] as number);
    }
    for (const rid of atCutoff) {
      if (out.length >= count) break;
      out.push(rid);
    }
    return out;
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
    const rids = new Float64Array(capacity);
    rids.set(this.rids);
    this.rids = rids;
    const namespaces = new Int32Array(capacity);
    namespaces.set(this.namespaces);
    this.namespaces = namespaces;
  }
}

/** One sign bit per dimension, packed into 32-bit words (bit i of word i/32 = dimension i > 0). */
export function encodeBinary(vector: Float32Array | Uint8Array, dimensions: number): Uint32Array {
  const values = vector instanceof Float32Array ? vector : asFloat32(vector);
  const code = new Uint32Array(Math.ceil(dimensions / 32));
  const n = Math.min(values.length, dimensions);
  for (let i = 0; i < n; i++) {
    if ((values[i] as number) > 0) code[i >>> 5] = (code[i >>> 5] as number) | (1 << (i & 31));
  }
  return code;
}

/** Marks slots of other namespaces; real distances never exceed the dimension count. */
const OUTSIDE = 0xffff;

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  v = (v + (v >>> 4)) & 0x0f0f0f0f;
  return Math.imul(v, 0x01010101) >>> 24;
}

function asFloat32(blob: Uint8Array): Float32Array {
  // BLOBs from SQLite may sit at any byte offset; copy when the view would be misaligned.
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength >>> 2);
  return new Float32Array(blob.slice().buffer, 0, blob.byteLength >>> 2);
}

/** Codes as stored in the `memory_codes` table: the words' little-endian bytes. */
export function codeToBlob(code: Uint32Array): Buffer {
  const out = Buffer.alloc(code.length * 4);
  for (let i = 0; i < code.length; i++) out.writeUInt32LE(code[i] as number, i * 4);
  return out;
}

export function blobToCode(blob: Uint8Array, words: number): Uint32Array {
  const code = new Uint32Array(words);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  for (let i = 0; i < words && i * 4 + 4 <= blob.byteLength; i++) code[i] = view.getUint32(i * 4, true);
  return code;
}
