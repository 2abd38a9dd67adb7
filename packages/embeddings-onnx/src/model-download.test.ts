import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMemoryError } from "@claw/memory-api";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmbeddingProvider, ensureModelFiles, type ModelManifest } from "./index.js";
import { type TinyModelFiles, tinyModelFiles, writeTinyModel } from "./test-support/build-tiny-model.js";
import { type ModelServer, startModelServer } from "./test-support/model-server.js";

const REPO = "claw-tests/tiny-model";
const MODEL_URL = `/${REPO}/resolve/main/onnx/model_int8.onnx`;
const tiny: TinyModelFiles = tinyModelFiles();

function manifest(sha256?: string): ModelManifest {
  return {
    repo: REPO,
    files: [
      { name: "model.onnx", remotePath: "onnx/model_int8.onnx", ...(sha256 !== undefined && { sha256 }) },
      { name: "tokenizer.json", remotePath: "tokenizer.json" },
      { name: "config.json", remotePath: "config.json" },
    ],
  };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

let server: ModelServer;
let workspaceDir: string;
const modelDir = () => join(workspaceDir, "models", "tiny");

beforeAll(async () => {
  server = await startModelServer({
    [MODEL_URL]: tiny["model.onnx"],
    [`/${REPO}/resolve/main/tokenizer.json`]: tiny["tokenizer.json"],
    [`/${REPO}/resolve/main/config.json`]: tiny["config.json"],
  });
});

afterAll(async () => {
  await server.close();
});

beforeEach(async () => {
  workspaceDir = await mkdtemp(join(tmpdir(), "claw-onnx-dl-"));
  server.requests.length = 0;
});

afterEach(async () => {
  await rm(workspaceDir, { recursive: true, force: true });
});

describe("ensureModelFiles against a loopback hub", () => {
  it("downloads every file with progress, installs it atomically and marks it complete", async () => {
    const progress = new Map<string, Array<[number, number | undefined]>>();
    const result = await ensureModelFiles({
      workspaceDir,
      model: "tiny",
      manifest: manifest(sha256(tiny["model.onnx"])),
      baseUrl: `${server.baseUrl}/`,
      onProgress: (file, received, total) =>
        progress.set(file, [...(progress.get(file) ?? []), [received, total]]),
    });
    expect(result.downloaded).toEqual(["model.onnx", "tokenizer.json", "config.json"]);
    expect(server.requests.map((request) => request.status)).toEqual([200, 200, 200]);
    for (const name of ["model.onnx", "tokenizer.json", "config.json"] as const) {
      expect(new Uint8Array(await readFile(join(modelDir(), name)))).toEqual(new Uint8Array(tiny[name]));
      expect(existsSync(join(modelDir(), `${name}.part`))).toBe(false);
      const calls = progress.get(name) ?? [];
      expect(calls.at(-1)).toEqual([tiny[name].byteLength, tiny[name].byteLength]);
    }
    expect(existsSync(join(modelDir(), ".complete"))).toBe(true);
  });

  it("makes no request when the files are already there", async () => {
    const options = { workspaceDir, model: "tiny", manifest: manifest(), baseUrl: server.baseUrl };
    await ensureModelFiles(options);
    const before = server.requests.length;
    const again = await ensureModelFiles(options);
    expect(again.downloaded).toEqual([]);
    expect(server.requests.length).toBe(before);
  });

  it("takes files placed by hand as installed without fetching them", async () => {
    await writeTinyModel(workspaceDir, "tiny");
    const result = await ensureModelFiles({
      workspaceDir,
      model: "tiny",
      manifest: manifest(),
      baseUrl: server.baseUrl,
    });
    expect(result.downloaded).toEqual([]);
    expect(server.requests).toEqual([]);
    expect(existsSync(join(modelDir(), ".complete"))).toBe(true);
  });

  it("keeps only a .part when the connection drops, then resumes it with a Range request", async () => {
    const options = {
      workspaceDir,
      model: "tiny",
      manifest: manifest(sha256(tiny["model.onnx"])),
      baseUrl: server.baseUrl,
    };
    server.cutNext(MODEL_URL, 100);
    const error = await ensureModelFiles(options).catch((e) => e);
    expect(isMemoryError(error, "UNAVAILABLE")).toBe(true);
    expect(String(error.message)).toContain("model.onnx");
    expect(existsSync(join(modelDir(), "model.onnx"))).toBe(false);
    expect(existsSync(join(modelDir(), ".complete"))).toBe(false);
    const partSize = (await stat(join(modelDir(), "model.onnx.part"))).size;
    expect(partSize).toBeGreaterThan(0);
    expect(partSize).toBeLessThan(tiny["model.onnx"].byteLength);

    const result = await ensureModelFiles(options);
    expect(result.downloaded).toContain("model.onnx");
    const resumed = server.requests.filter((request) => request.url === MODEL_URL).at(-1);
    expect(resumed).toEqual({ url: MODEL_URL, range: `bytes=${partSize}-`, status: 206 });
    expect(new Uint8Array(await readFile(join(modelDir(), "model.onnx")))).toEqual(
      new Uint8Array(tiny["model.onnx"]),
    );
    expect(existsSync(join(modelDir(), "model.onnx.part"))).toBe(false);
    expect(existsSync(join(modelDir(), ".complete"))).toBe(true);
  });

  it("starts over when the server ignores the Range header", async () => {
    const options = { workspaceDir, model: "tiny", manifest: manifest(), baseUrl: server.baseUrl };
    server.cutNext(MODEL_URL, 100);
    await expect(ensureModelFiles(options)).rejects.toThrow(/model\.onnx/);
    const withoutRange = (url: string, init?: RequestInit) => fetch(url, { ...init, headers: {} });
    await ensureModelFiles({ ...options, fetch: withoutRange });
    expect(new Uint8Array(await readFile(join(modelDir(), "model.onnx")))).toEqual(
      new Uint8Array(tiny["model.onnx"]),
    );
  });

  it("rejects a file whose sha256 does not match and installs nothing", async () => {
    const wrong = sha256(new TextEncoder().encode("something else"));
    const error = await ensureModelFiles({
      workspaceDir,
      model: "tiny",
      manifest: manifest(wrong),
      baseUrl: server.baseUrl,
    }).catch((e) => e);
    expect(isMemoryError(error, "UNAVAILABLE")).toBe(true);
    expect(String(error.message)).toMatch(/model\.onnx.*sha256/);
    expect(existsSync(join(modelDir(), "model.onnx"))).toBe(false);
    expect(existsSync(join(modelDir(), "model.onnx.part"))).toBe(false);
    expect(existsSync(join(modelDir(), ".complete"))).toBe(false);
  });

  it("reports a missing remote file as UNAVAILABLE, naming it", async () => {
    const missing: ModelManifest = {
      repo: REPO,
      files: [...manifest().files, { name: "extra.bin", remotePath: "nope/extra.bin" }],
    };
    const error = await ensureModelFiles({
      workspaceDir,
      model: "tiny",
      manifest: missing,
      baseUrl: server.baseUrl,
    }).catch((e) => e);
    expect(isMemoryError(error, "UNAVAILABLE")).toBe(true);
    expect(String(error.message)).toContain("extra.bin");
    expect(String(error.message)).toContain("404");
    expect(existsSync(join(modelDir(), ".complete"))).toBe(false);
  });

  it("does not fetch when downloads are off", async () => {
    const error = await ensureModelFiles({
      workspaceDir,
      model: "tiny",
      manifest: manifest(),
      baseUrl: server.baseUrl,
      download: false,
    }).catch((e) => e);
    expect(isMemoryError(error, "UNAVAILABLE")).toBe(true);
    expect(server.requests).toEqual([]);
  });

  it("lets the provider download its model through settings, then embed with it", async () => {
    const files: string[] = [];
    const provider = await createEmbeddingProvider({
      workspaceDir,
      model: "tiny",
      manifest: manifest(),
      modelBaseUrl: server.baseUrl,
      onDownloadProgress: (file) => files.push(file),
    });
    try {
      expect(new Set(files)).toEqual(new Set(["model.onnx", "tokenizer.json", "config.json"]));
      const [vector] = await provider.embed(["the cat sat"]);
      expect(vector?.length).toBe(8);
    } finally {
      await provider.close?.();
    }
  });
});
