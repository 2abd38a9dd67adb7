// Writes a tiny but real ONNX embedding model (Gather over a hand-made table), a WordPiece
// tokenizer.json and a config.json, so tests run onnxruntime-node with no network and no Python.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { onnx } from "onnx-proto";

export const HIDDEN = 8;

/** Token → row of the embedding table. Rows are chosen so the expected vectors can be worked out by hand. */
export const TINY_VOCAB: ReadonlyArray<readonly [string, readonly number[]]> = [
  // [PAD] is huge on purpose: if padding leaked past the attention mask, batched vectors would change.
  ["[PAD]", [50, 50, 50, 50, 50, 50, 50, 50]],
  ["[UNK]", [0, 0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]],
  ["[CLS]", [1, 0, 0, 0, 0, 0, 0, 0]],
  ["[SEP]", [0, 1, 0, 0, 0, 0, 0, 0]],
  // animals and the like live in dims 2-4, weather in dims 5-7
  ["cat", [0, 0, 1, 0, 0, 0, 0, 0]],
  ["dog", [0, 0, 0, 1, 0, 0, 0, 0]],
  ["sat", [0, 0, 0, 0, 1, 0, 0, 0]],
  ["mat", [0, 0, 0.5, 0, 0.5, 0, 0, 0]],
  ["ran", [0, 0, 0, 0.5, 0.5, 0, 0, 0]],
  ["the", [0, 0, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2]],
  ["sun", [0, 0, 0, 0, 0, 1, 0, 0]],
  ["rain", [0, 0, 0, 0, 0, 0, 1, 0]],
  ["cloud", [0, 0, 0, 0, 0, 0, 0, 1]],
  ["wind", [0, 0, 0, 0, 0, 0.5, 0.5, 0]],
  ["cold", [0, 0, 0, 0, 0, 0, 0.5, 0.5]],
  ["##s", [0, 0, 0.1, 0, 0, 0.1, 0, 0]],
];

export function embeddingRow(token: string): number[] {
  const row = TINY_VOCAB.find(([name]) => name === token);
  if (row === undefined) throw new Error(`no row for ${token}`);
  return [...row[1]];
}

export interface TinyModelOptions {
  /** Declare a (never used) token_type_ids input, like BERT exports have. */
  tokenTypeIds?: boolean;
  /** Output an already pooled `sentence_embedding [batch, 8]` (ReduceMean over tokens) instead. */
  pooledOutput?: boolean;
  /** Leave the hidden size symbolic in the output's shape, so the provider must measure it. */
  symbolicHidden?: boolean;
}

function tensorType(elemType: number, dims: Array<string | number>): onnx.ITypeProto {
  return {
    tensorType: {
      elemType,
      shape: { dim: dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) },
    },
  };
}

/** The serialized ModelProto: opset 13, IR version 8. */
export function buildTinyModel(options: TinyModelOptions = {}): Uint8Array {
  const INT64 = onnx.TensorProto.DataType.INT64;
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const table = TINY_VOCAB.flatMap(([, row]) => row);
  const inputs: onnx.IValueInfoProto[] = [
    { name: "input_ids", type: tensorType(INT64, ["batch", "seq"]) },
    { name: "attention_mask", type: tensorType(INT64, ["batch", "seq"]) },
  ];
  if (options.tokenTypeIds)
    inputs.push({ name: "token_type_ids", type: tensorType(INT64, ["batch", "seq"]) });
  const nodes: onnx.INodeProto[] = [
    {
      opType: "Gather",
      input: ["embedding_table", "input_ids"],
      output: ["last_hidden_state"],
      attribute: [{ name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
    },
  ];
  const hidden = options.symbolicHidden ? "hidden" : HIDDEN;
  let outputs: onnx.IValueInfoProto[] = [
    { name: "last_hidden_state", type: tensorType(FLOAT, ["batch", "seq", hidden]) },
  ];
  if (options.pooledOutput) {
    nodes.push({
      opType: "ReduceMean",
      input: ["last_hidden_state"],
      output: ["sentence_embedding"],
      attribute: [
        { name: "axes", type: onnx.AttributeProto.AttributeType.INTS, ints: [1] },
        { name: "keepdims", type: onnx.AttributeProto.AttributeType.INT, i: 0 },
      ],
    });
    outputs = [{ name: "sentence_embedding", type: tensorType(FLOAT, ["batch", hidden]) }];
  }
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: "claw-memory-tests",
    opsetImport: [{ domain: "", version: 13 }],
    graph: {
      name: "tiny",
      node: nodes,
      input: inputs,
      output: outputs,
      initializer: [
        { name: "embedding_table", dataType: FLOAT, dims: [TINY_VOCAB.length, HIDDEN], floatData: table },
      ],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/** A BERT-style WordPiece tokenizer.json over TINY_VOCAB. */
export function buildTinyTokenizer(): Record<string, unknown> {
  const vocab = Object.fromEntries(TINY_VOCAB.map(([token], id) => [token, id]));
  const special = (content: string) => ({
    id: vocab[content],
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const specialTokens = (token: string) => ({ id: token, ids: [vocab[token]], tokens: [token] });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: ["[PAD]", "[UNK]", "[CLS]", "[SEP]"].map(special),
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: { "[CLS]": specialTokens("[CLS]"), "[SEP]": specialTokens("[SEP]") },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

export interface TinyModelFiles {
  "model.onnx": Uint8Array;
  "tokenizer.json": Uint8Array;
  "config.json": Uint8Array;
}

/** The three files as bytes (also what the loopback download server serves). */
export function tinyModelFiles(
  options: TinyModelOptions & { pooling?: "mean" | "cls" } = {},
): TinyModelFiles {
  const config = { model_type: "tiny-test", hidden_size: HIDDEN, pooling: options.pooling ?? "mean" };
  return {
    "model.onnx": buildTinyModel(options),
    "tokenizer.json": Buffer.from(JSON.stringify(buildTinyTokenizer())),
    "config.json": Buffer.from(JSON.stringify(config)),
  };
}

/** Writes the files into `{workspaceDir}/models/{model}/` and returns that folder. */
export async function writeTinyModel(
  workspaceDir: string,
  model = "tiny",
  options: TinyModelOptions & { pooling?: "mean" | "cls" } = {},
): Promise<string> {
  const dir = join(workspaceDir, "models", model);
  await mkdir(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(tinyModelFiles(options))) {
    await writeFile(join(dir, name), bytes);
  }
  return dir;
}
