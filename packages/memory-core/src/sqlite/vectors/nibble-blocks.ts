import { NIBBLE_SCAN_WASM } from "./nibble-scan-module.js";

/**
 * The codes of a BinaryCodes, laid out for the WebAssembly SIMD scan of nibble-scan.wat ("4-bit
 * fast scan", as in Faiss and ScaNN): in blocks of 32 codes, one 16-byte vector per 4-bit group
 * ("position", two per code byte), whose byte i holds code i's group in its low half and code
 * i+16's in its high half, so that one i8x16.swizzle looks a group up in the query's table for 16
 * codes at once. The query's float tables (vector-encoder.ts, 256 entries per code byte) become
 * 16-entry tables per position, quantised to integers with one step for all positions, so that
 * their sums compare across codes. At 1M × 384 the scan takes ~7 ms where the float tables' lookups
 * in JavaScript took 33–45 ms. A quantised sum is within half a step per position of the float
 * sum; the exact re-rank of the candidates (vector-index.ts) removes what that changes.
 *
 * The codes are kept only here: lookups of single codes (a metadata filter's few, a namespace's
 * few, and every scan where WebAssembly SIMD is missing) rebuild each byte from its two halves and
 * use the float tables, as the scan in JavaScript always did.
 */

/** Codes per block. */
const BLOCK = 32;
const PAGE_BYTES = 65536;

type ScanFunction = (blocks: number, count: number, positions: number, tables: number, out: number) => void;

/** The parts of the WebAssembly API used here (TypeScript declares it in its DOM library only). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}

const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
let compiled: object | null | undefined;

/** The compiled scan, or null when this runtime cannot run it (no WebAssembly SIMD). */
function scanModule(): object | null {
  if (compiled === undefined) {
    const bytes = Buffer.from(NIBBLE_SCAN_WASM, "base64");
    compiled = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
  }
  return compiled;
}

/** Whether this runtime runs the SIMD scan (Node 16.4 and later do). */
export function nibbleScanAvailable(): boolean {
  return scanModule() !== null;
}

/** One scan's result: per slot, Σ of the query's coordinates where its code has a 1 ≈ step × sums[slot] + base. */
export interface NibbleSums {
  sums: Uint16Array;
  step: number;
  base: number;
}

export class NibbleBlocks {
  /** 4-bit groups per code: two per byte. */
  private readonly positions: number;
  private readonly blockBytes: number;
  /** The query's tables come first in the memory, then the blocks, then the sums of a scan. */
  private readonly tablesBytes: number;
  /** The largest table entry: the sums of a code's entries must fit in 16 bits. */
  private readonly top: number;
  /** The WebAssembly memory and scan; null: a plain buffer, and no scan(). */
  private readonly simd: { memory: WasmMemory; scan: ScanFunction } | null;
  private bytes: Uint8Array;
  private blocks = 0;
  /** One code's bytes, for write() and copy(). */
  private readonly scratch: Uint8Array;

  /** `words`: 32-bit words per code. `simd`: scan in WebAssembly, where nibbleScanAvailable() (else as false). */
  constructor(
    readonly words: number,
    simd: boolean,
  ) {
    this.positions = words * 8;
    this.blockBytes = this.positions * 16;
    this.tablesBytes = this.positions * 16;
    this.top = Math.min(255, Math.floor(65535 / this.positions));
    this.scratch = new Uint8Array(words * 4);
    const module = simd ? scanModule() : null;
    if (module === null || wasm === undefined) {
      this.simd = null;
      this.bytes = new Uint8Array(this.tablesBytes);
    } else {
      const memory = new wasm.Memory({ initial: 1 });
      const instance = new wasm.Instance(module, { env: { memory } });
      this.simd = { memory, scan: instance.exports.scan as ScanFunction };
      this.bytes = new Uint8Array(memory.buffer);
    }
  }

  /** Whether scan() runs. */
  get scans(): boolean {
    return this.simd !== null;
  }

  /** Makes room for `capacity` codes. */
  reserve(capacity: number): void {
    const blocks = Math.ceil(capacity / BLOCK);
    if (blocks <= this.blocks) return;
    const needed = this.tablesBytes + blocks * (this.blockBytes + BLOCK * 2);
    const have = this.bytes.byteLength;
    if (needed > have && this.simd !== null) {
      this.simd.memory.grow(Math.ceil((needed - have) / PAGE_BYTES));
      this.bytes = new Uint8Array(this.simd.memory.buffer);
    } else if (needed > have) {
      const bytes = new Uint8Array(needed);
      bytes.set(this.bytes);
      this.bytes = bytes;
    }
    this.blocks = blocks;
  }

  /** Writes `slot`'s code from `words` words of `codes` starting at `at`. */
  write(slot: number, codes: Uint32Array, at: number): void {
    const bytes = this.scratch;
    for (let w = 0; w < this.words; w++) {
      const word = codes[at + w] as number;
      bytes[w * 4] = word & 255;
      bytes[w * 4 + 1] = (word >>> 8) & 255;
      bytes[w * 4 + 2] = (word >>> 16) & 255;
      bytes[w * 4 + 3] = word >>> 24;
    }
    this.writeStored(slot, bytes);
  }

  /** Writes `slot`'s code from its stored form: its words as little-endian bytes. */
  writeStored(slot: number, stored: Uint8Array): void {
    const { bytes } = this;
    const end = this.words * 4;
    let at = this.laneAt(slot);
    if ((slot & (BLOCK - 1)) < 16) {
      for (let b = 0; b < end; b++, at += 32) {
        const value = stored[b] as number;
        bytes[at] = ((bytes[at] as number) & 0xf0) | (value & 15);
        bytes[at + 16] = ((bytes[at + 16] as number) & 0xf0) | (value >>> 4);
      }
    } else {
      for (let b = 0; b < end; b++, at += 32) {
        const value = stored[b] as number;
        bytes[at] = ((bytes[at] as number) & 0x0f) | ((value & 15) << 4);
        bytes[at + 16] = ((bytes[at + 16] as number) & 0x0f) | (value & 0xf0);
      }
    }
  }

  /** Copies code `from` over code `to`. */
  copy(from: number, to: number): void {
    const bytes = this.scratch;
    for (let b = 0; b < this.words * 4; b++) bytes[b] = this.byteOf(from, b);
    this.writeStored(to, bytes);
  }

  /** Σ over code `slot`'s bytes of the float table entry of each (256 entries per code byte). */
  tableSum(slot: number, table: Float32Array): number {
    const { bytes } = this;
    let at = this.laneAt(slot);
    let sum = 0;
    if ((slot & (BLOCK - 1)) < 16) {
      for (let t = 0; t < table.length; t += 256, at += 32)
        sum += table[t + (((bytes[at] as number) & 15) | (((bytes[at + 16] as number) & 15) << 4))] as number;
    } else {
      for (let t = 0; t < table.length; t += 256, at += 32)
        sum += table[t + (((bytes[at] as number) >>> 4) | ((bytes[at + 16] as number) & 0xf0))] as number;
    }
    return sum;
  }

  /**
   * Sums for the first `count` slots of the query whose float tables are `table` (256 entries
   * per code byte; byte b of word w at (w × 4 + b) × 256), valid until the next call. Only when
   * `scans`.
   */
  scan(table: Float32Array, count: number): NibbleSums {
    const { bytes, positions, top, simd } = this;
    if (simd === null) throw new Error("no WebAssembly SIMD scan here");
    const lows = new Float64Array(positions);
    let widest = 0;
    for (let p = 0; p < positions; p++) {
      let low = Number.POSITIVE_INFINITY;
      let high = Number.NEGATIVE_INFINITY;
      for (let v = 0; v < 16; v++) {
        const entry = entryOf(table, p, v);
        if (entry < low) low = entry;
        if (entry > high) high = entry;
      }
      lows[p] = low;
      widest = Math.max(widest, high - low);
    }
    const step = widest > 0 ? widest / top : 1;
    let base = 0;
    for (let p = 0; p < positions; p++) {
      const low = lows[p] as number;
      base += low;
      for (let v = 0; v < 16; v++) bytes[p * 16 + v] = Math.round((entryOf(table, p, v) - low) / step);
    }
    const blocks = Math.min(this.blocks, Math.ceil(count / BLOCK));
    const out = this.tablesBytes + this.blocks * this.blockBytes;
    simd.scan(this.tablesBytes, blocks, positions, 0, out);
    return { sums: new Uint16Array(simd.memory.buffer, out, blocks * BLOCK), step, base };
  }

  /** Where `slot`'s first position byte is: the next ones follow 16 bytes apart. */
  private laneAt(slot: number): number {
    return this.tablesBytes + (slot >>> 5) * this.blockBytes + (slot & 15);
  }

  private byteOf(slot: number, b: number): number {
    const { bytes } = this;
    const at = this.laneAt(slot) + b * 32;
    return (slot & (BLOCK - 1)) < 16
      ? ((bytes[at] as number) & 15) | (((bytes[at + 16] as number) & 15) << 4)
      : ((bytes[at] as number) >>> 4) | ((bytes[at + 16] as number) & 0xf0);
  }
}

/**
 * The float table's entry for 4-bit value `v` at position `p`: the low half of byte p / 2 when p
 * is even, its high half otherwise.
 */
function entryOf(table: Float32Array, p: number, v: number): number {
  return table[(p >>> 1) * 256 + ((p & 1) === 0 ? v : v << 4)] as number;
}
