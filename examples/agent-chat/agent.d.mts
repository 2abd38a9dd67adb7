import type { Logger, Memory } from "@claw/memory-api";

export interface AgentOptions {
  workspaceDir: string;
  apiKey?: string;
  baseURL?: string;
  model?: string;
  embeddingModel?: string;
  contextWindow?: number;
  logger?: Logger;
}

export interface Agent {
  memory: Memory;
  chat(message: string): Promise<string>;
  close(): Promise<void>;
}

export function createAgent(options: AgentOptions): Promise<Agent>;
