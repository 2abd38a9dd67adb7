// Splits a byte stream into lines without ever holding more than one line (of at most
// `maxLineBytes`): a longer line is reported and skipped, so memory stays bounded whatever arrives.

export type NdjsonLine =
  | { number: number; text: string; tooLong?: undefined }
  | { number: number; text?: undefined; tooLong: true };

const NEWLINE = 0x0a;

export async function* readNdjsonLines(
  source: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  maxLineBytes: number,
): AsyncGenerator<NdjsonLine> {
  let parts: Buffer[] = [];
  let size = 0;
  let discarding = false;
  let number = 0;

  const finish = (): NdjsonLine => {
    number += 1;
    if (discarding) {
      discarding = false;
      return { number, tooLong: true };
    }
    let text = Buffer.concat(parts, size).toString("utf8");
    parts = [];
    size = 0;
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (number === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { number, text };
  };

  const append = (piece: Buffer): void => {
    if (discarding || piece.length === 0) return;
    if (size + piece.length > maxLineBytes) {
      discarding = true;
      parts = [];
      size = 0;
      return;
    }
    parts.push(piece);
    size += piece.length;
  };

  for await (const chunk of source) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    for (let at = bytes.indexOf(NEWLINE, start); at !== -1; at = bytes.indexOf(NEWLINE, start)) {
      append(bytes.subarray(start, at));
      yield finish();
      start = at + 1;
    }
    // Copied: the stream may reuse its chunk's memory.
    append(Buffer.from(bytes.subarray(start)));
  }
  if (size > 0 || discarding) yield finish();
}
