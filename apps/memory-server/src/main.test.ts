import { EventEmitter } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Environment } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { closedPort } from "../../../packages/memory-postgres/src/test-support/closed-port.js";
import { type MainIo, main } from "./main.js";
import { tempWorkspace } from "./test-support/server-harness.js";

function fakeIo(env: Environment = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const signals = new EventEmitter();
  const exits: number[] = [];
  let printed: (text: string) => void = () => {};
  const firstOutput = new Promise<string>((resolve) => {
    printed = resolve;
  });
  const io: MainIo = {
    env,
    stdout: {
      write: (text: string) => {
        out.push(text);
        printed(text);
      },
    },
    stderr: { write: (text: string) => err.push(text) },
    signals: signals as MainIo["signals"],
    forceExit: (code) => exits.push(code),
  };
  return { io, out, err, signals, exits, firstOutput };
}

describe("claw-memory-server (main)", () => {
  it("prints the URL and a curl example, serves, and exits 0 after SIGTERM", async () => {
    const { io, err, signals, firstOutput } = fakeIo({ CLAW_MEMORY_API_KEY: "main-test-key" });
    const exit = main(["--workspace", tempWorkspace(), "--port", "0"], io);
    const banner = await firstOutput;
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1] as string;
    expect(banner).toContain(`curl -H "Authorization: Bearer $CLAW_MEMORY_API_KEY"`);
    expect(banner).toContain(`${url}/v1/recall`);
    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toEqual({ status: "ok", backend: "sqlite", database: true });
    signals.emit("SIGTERM");
    expect(await exit).toBe(0);
    expect(err.join("")).toContain("claw-memory server stopped");
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it("exits 2 on bad arguments and on an open listener beyond loopback", async () => {
    const unknown = fakeIo();
    expect(await main(["--bogus"], unknown.io)).toBe(2);
    expect(unknown.err.join("")).toContain("Unknown option '--bogus'");
    const port = fakeIo();
    expect(await main(["--port", "99999"], port.io)).toBe(2);
    expect(port.err.join("")).toBe("error: --port: expected a whole number from 0 to 65535, got 99999\n");
    const open = fakeIo();
    expect(await main(["--workspace", tempWorkspace(), "--host", "0.0.0.0", "--port", "0"], open.io)).toBe(2);
    expect(open.err.join("")).toMatch(
      /^error: server\.host: refusing to listen on 0\.0\.0\.0 without a token/,
    );
  });

  it("exits 1 with one error line when its PostgreSQL server cannot be reached", async () => {
    const port = await closedPort();
    const ws = tempWorkspace();
    writeFileSync(
      join(ws, "claw-memory.toml"),
      '[memory]\nbackend = "postgres"\nembedding_provider = "none"\n',
    );
    const { io, out, err } = fakeIo({ CLAW_MEMORY_PG_URL: `postgres://claw:s3cret@127.0.0.1:${port}/claw` });
    expect(await main(["--workspace", ws, "--port", "0"], io)).toBe(1);
    expect(out).toEqual([]);
    expect(err.join("").split("\n")).toEqual([
      `error: cannot connect to PostgreSQL at postgres://claw:***@127.0.0.1:${port}/claw ` +
        `(connect ECONNREFUSED 127.0.0.1:${port}): is the server running and reachable?`,
      "",
    ]);
  });

  it("exits 4 with the doctor's advice when the database file is damaged", async () => {
    const ws = tempWorkspace();
    writeFileSync(join(ws, "claw-memory.toml"), '[memory]\nembedding_provider = "none"\n');
    writeFileSync(join(ws, "brain.db"), Buffer.alloc(8192, 0x5a)); // no SQLite header at all
    const { io, out, err } = fakeIo({ CLAW_MEMORY_API_KEY: "main-test-key" });
    expect(await main(["--workspace", ws, "--port", "0"], io)).toBe(4);
    expect(out).toEqual([]);
    const lines = err.join("").split("\n");
    expect(lines[0]).toBe(`error: cannot open ${join(ws, "brain.db")}: file is not a database`);
    expect(lines[1]).toBe(
      "the database file is damaged: run `claw-memory doctor` (then --repair or --salvage OUT)",
    );
  });

  it("prints the usage with --help", async () => {
    const { io, out } = fakeIo();
    expect(await main(["--help"], io)).toBe(0);
    expect(out.join("")).toMatch(/^Usage: claw-memory-server \[--workspace DIR\]/);
  });

  it("prints the package's version with --version", async () => {
    const { io, out } = fakeIo();
    expect(await main(["--version"], io)).toBe(0);
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(out.join("")).toBe(`${version}\n`);
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
