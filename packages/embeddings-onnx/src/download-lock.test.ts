import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { LOCK_FILE, withDownloadLock } from "./download-lock.js";

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "claw-onnx-lock-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A live process other than this one, stopped after the test. */
async function otherProcess(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  await once(child, "spawn");
  onTestFinished(() => {
    child.kill();
  });
  return child.pid as number;
}

describe("withDownloadLock", () => {
  it("holds the lock file while working and removes it after", async () => {
    const dir = await tempDir();
    const result = await withDownloadLock(dir, async () => existsSync(join(dir, LOCK_FILE)));
    expect(result).toBe(true);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it("waits while another live process holds it, then runs", async () => {
    const dir = await tempDir();
    const lock = join(dir, LOCK_FILE);
    await writeFile(lock, JSON.stringify({ pid: await otherProcess(), host: hostname() }));
    const order: string[] = [];
    const waiting = withDownloadLock(dir, async () => order.push("ran"), { pollMs: 10 });
    // Still waiting after several polls: the holder is alive and its lock fresh.
    await new Promise((resolve) => setTimeout(resolve, 80));
    order.push("released");
    await rm(lock);
    await waiting;
    expect(order).toEqual(["released", "ran"]);
  });

  it("takes over the lock of a process that died", async () => {
    const dir = await tempDir();
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await once(child, "exit");
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: child.pid, host: hostname() }));
    expect(await withDownloadLock(dir, async () => "ran", { pollMs: 10 })).toBe("ran");
  });

  it("takes over a lock nobody refreshed for staleMs", async () => {
    const dir = await tempDir();
    const lock = join(dir, LOCK_FILE);
    await writeFile(lock, JSON.stringify({ pid: await otherProcess(), host: "another-host" }));
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect(await withDownloadLock(dir, async () => "ran", { pollMs: 10, staleMs: 30_000 })).toBe("ran");
  });

  it("stops waiting when aborted", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: await otherProcess(), host: hostname() }));
    const controller = new AbortController();
    const waiting = withDownloadLock(dir, async () => "ran", { pollMs: 10, signal: controller.signal });
    controller.abort(new Error("gave up"));
    await expect(waiting).rejects.toThrow("gave up");
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true); // the other holder's lock is left alone
  });
});
