// Turns texts into padded int64 batches with @huggingface/tokenizers, offline, from tokenizer.json.
import { readFile } from "node:fs/promises";
import { MemoryError } from "@claw/memory-api";
import { Tokenizer } from "@huggingface/tokenizers";

export interface EncodedBatch {
  /** Rows × columns, row-major. */
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  tokenTypeIds: BigInt64Array;
  rows: number;
  columns: number;
}

export interface TextEncoder {
  /** Token ids with the model's special tokens, at most `maxTokens` of them. */
  encode(text: string): number[];
  /** Pads every row to the longest one; padded positions get attention_mask 0. */
  batch(texts: readonly string[]): EncodedBatch;
}

async function readJson(path: string, what: string): Promise<Record<string, unknown>> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new MemoryError("UNAVAILABLE", `cannot read ${what} ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** tokenizer.json's own padding id, else the usual pad tokens, else 0 (masked out anyway). */
function padIdOf(json: Record<string, unknown>, tokenizer: Tokenizer): number {
  const padding = json.padding as { pad_id?: unknown } | null | undefined;
  if (typeof padding?.pad_id === "number") return padding.pad_id;
  for (const token of ["[PAD]", "<pad>", "<|padding|>"]) {
    const id = tokenizer.token_to_id(token);
    if (id !== undefined) return id;
  }
  return 0;
}

export async function loadTextEncoder(options: {
  tokenizerPath: string;
  tokenizerConfigPath?: string;
  maxTokens: number;
}): Promise<TextEncoder> {
  const json = await readJson(options.tokenizerPath, "tokenizer");
  const config =
    options.tokenizerConfigPath === undefined
      ? {}
      : await readJson(options.tokenizerConfigPath, "tokenizer config");
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(json, config);
  } catch (error) {
    throw new MemoryError(
      "UNAVAILABLE",
      `cannot load tokenizer ${options.tokenizerPath}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const padId = padIdOf(json, tokenizer);
  const maxTokens = options.maxTokens;

  function encode(text: string): number[] {
    const full = tokenizer.encode(text).ids;
    if (full.length <= maxTokens) return full;
    // The library has no truncation option: cut the text's own tokens and keep the template's
    // special tokens around them ([CLS] … [SEP], <s> … </s>), as truncation in tokenizers does.
    const body = tokenizer.encode(text, { add_special_tokens: false }).ids;
    const specials = full.length - body.length;
    const prefix = findPrefix(full, body);
    if (specials < 0 || specials >= maxTokens || prefix < 0) return full.slice(0, maxTokens);
    return [
      ...full.slice(0, prefix),
      ...body.slice(0, maxTokens - specials),
      ...full.slice(prefix + body.length),
    ];
  }

  function batch(texts: readonly string[]): EncodedBatch {
    const rows = texts.map(encode);
    const columns = Math.max(1, ...rows.map((row) => row.length));
    const size = rows.length * columns;
    const inputIds = new BigInt64Array(size).fill(BigInt(padId));
    const attentionMask = new BigInt64Array(size);
    rows.forEach((row, r) => {
      row.forEach((id, c) => {
        inputIds[r * columns + c] = BigInt(id);
        attentionMask[r * columns + c] = 1n;
      });
    });
    return { inputIds, attentionMask, tokenTypeIds: new BigInt64Array(size), rows: rows.length, columns };
  }

  return { encode, batch };
}

/** Where `body` starts inside `full` (the template's leading special tokens), or -1. */
function findPrefix(full: readonly number[], body: readonly number[]): number {
  for (let start = 0; start + body.length <= full.length; start++) {
    if (body.every((id, i) => full[start + i] === id)) return start;
  }
  return -1;
}
