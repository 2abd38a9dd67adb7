// Rows in PostgreSQL's binary COPY format (`COPY … FROM STDIN (FORMAT binary)`): a header, then
// per row its field count and each field as a length and its bytes in the type's binary form. A
// vector goes as 4 bytes a float, with no decimal text to write here or to parse on the server.

/** The signature, flags (no OIDs) and header extension length that open a binary COPY. */
const HEADER = Buffer.from([
  0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
]);
/** The field count -1 that ends the data. */
const TRAILER = Buffer.from([0xff, 0xff]);
/** float4's type OID, written into an array's header. */
const FLOAT4_OID = 700;
/** Microseconds between the Unix epoch and PostgreSQL's (2000-01-01 UTC). */
const PG_EPOCH_MS = 946_684_800_000;

/** The field types a row may hold, as their binary forms are written. */
export type CopyField =
  | { type: "text"; value: string | null }
  | { type: "float8"; value: number | null }
  | { type: "int4"; value: number | null }
  | { type: "bool"; value: boolean | null }
  | { type: "timestamptz"; value: string | null }
  | { type: "float4[]"; value: Float32Array | null };

/**
 * Writes rows into buffers of about `chunkBytes` each, ready to stream into a COPY: `row()` per
 * row, then `end()`, which returns every buffer, the header first and the trailer last.
 */
export class BinaryCopyWriter {
  private readonly buffers: Buffer[] = [HEADER];
  private buffer: Buffer;
  /** The same bytes as `buffer`: a vector's floats are written through it, ~9× faster than by Buffer's methods. */
  private view: DataView;
  private offset = 0;

  constructor(private readonly chunkBytes = 1 << 20) {
    this.buffer = Buffer.allocUnsafe(chunkBytes);
    this.view = viewOf(this.buffer);
  }

  /** Adds one row: its fields in the staging table's column order. */
  row(fields: readonly CopyField[]): void {
    this.room(2);
    this.offset = this.buffer.writeInt16BE(fields.length, this.offset);
    for (const field of fields) this.field(field);
  }

  /** The rows written, then the trailer, as buffers to send in order. */
  end(): Buffer[] {
    this.seal();
    this.buffers.push(TRAILER);
    return this.buffers;
  }

  private field(field: CopyField): void {
    if (field.value === null) {
      this.room(4);
      this.offset = this.buffer.writeInt32BE(-1, this.offset);
      return;
    }
    switch (field.type) {
      case "text": {
        const bytes = Buffer.byteLength(field.value, "utf8");
        this.room(4 + bytes);
        this.offset = this.buffer.writeInt32BE(bytes, this.offset);
        this.offset += this.buffer.write(field.value, this.offset, "utf8");
        return;
      }
      case "float8":
        this.room(12);
        this.offset = this.buffer.writeInt32BE(8, this.offset);
        this.offset = this.buffer.writeDoubleBE(field.value, this.offset);
        return;
      case "int4":
        this.room(8);
        this.offset = this.buffer.writeInt32BE(4, this.offset);
        this.offset = this.buffer.writeInt32BE(field.value, this.offset);
        return;
      case "bool":
        this.room(5);
        this.offset = this.buffer.writeInt32BE(1, this.offset);
        this.offset = this.buffer.writeUInt8(field.value ? 1 : 0, this.offset);
        return;
      case "timestamptz":
        this.room(12);
        this.offset = this.buffer.writeInt32BE(8, this.offset);
        this.offset = this.buffer.writeBigInt64BE(timestampMicros(field.value), this.offset);
        return;
      case "float4[]":
        this.float4Array(field.value);
        return;
    }
  }

  /** A float4 array (float4ArrayInto), after its length. */
  private float4Array(vector: Float32Array): void {
    const bytes = float4ArrayBytes(vector.length);
    this.room(4 + bytes);
    this.view.setInt32(this.offset, bytes);
    this.offset = float4ArrayInto(this.view, this.offset + 4, [vector], vector.length);
  }

  /** Makes sure `bytes` more fit: the full buffer is kept and a new one begun. */
  private room(bytes: number): void {
    if (this.offset + bytes <= this.buffer.length) return;
    this.seal();
    this.buffer = Buffer.allocUnsafe(Math.max(this.chunkBytes, bytes));
    this.view = viewOf(this.buffer);
  }

  private seal(): void {
    if (this.offset > 0) this.buffers.push(this.buffer.subarray(0, this.offset));
    this.offset = 0;
  }
}

/** The bytes of a one-dimensional float4 array of `count` elements in binary form. */
export function float4ArrayBytes(count: number): number {
  return 20 + count * 8;
}

/**
 * Writes `parts` one after the other as one float4 array in PostgreSQL's binary form (array_recv's:
 * dimensions, no NULLs, the element type, length and lower bound, then each element as its length
 * and its big-endian bytes) at `at`; returns where it ends. `count`: their elements in all.
 */
export function float4ArrayInto(
  view: DataView,
  at: number,
  parts: readonly Float32Array[],
  count: number,
): number {
  view.setInt32(at, 1); // dimensions
  view.setInt32(at + 4, 0); // no NULL elements
  view.setInt32(at + 8, FLOAT4_OID);
  view.setInt32(at + 12, count);
  view.setInt32(at + 16, 1); // lower bound
  let end = at + 20;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      view.setInt32(end, 4);
      view.setFloat32(end + 4, part[i] as number);
      end += 8;
    }
  }
  return end;
}

function viewOf(buffer: Buffer): DataView {
  return new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/**
 * An RFC 3339 time as microseconds since 2000-01-01 UTC. Entries carry milliseconds; digits past
 * them (microseconds) are kept too.
 */
export function timestampMicros(value: string): bigint {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`not a timestamp: ${value}`);
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? "";
  const extraMicros = fraction.length > 3 ? Number(fraction.slice(3, 6).padEnd(3, "0")) : 0;
  return BigInt(ms - PG_EPOCH_MS) * 1000n + BigInt(extraMicros);
}
