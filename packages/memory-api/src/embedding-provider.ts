export type EmbeddingPurpose = "query" | "document";

export interface EmbedOptions {
  purpose?: EmbeddingPurpose;
  signal?: AbortSignal;
}

export interface EmbeddingProvider {
  readonly id: string;
  readonly model: string;
  readonly dimensions: number;
  readonly maxBatchSize?: number;
  readonly maxInputTokens?: number;
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  close?(): Promise<void>;
}

/** For the curator; OpenAI-compatible and Gemini implementations live in their provider packages. */
export interface TextGenerator {
  generate(request: {
    system?: string;
    prompt: string;
    json?: boolean;
    signal?: AbortSignal;
  }): Promise<string>;
}
