// The web inspector in a real browser (Debian's chromium driven by playwright-core) against a real
// server on a socket: a person types the token, reads the status and the list, recalls, edits,
// forgets and exports, and the library sees the changes. Every wait is on the page's own state.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { type RunningServer, startServer } from "../start-server.js";
import { tempWorkspace } from "../test-support/server-harness.js";

const CHROMIUM = "/usr/bin/chromium";
const TOKEN = "inspector-browser-token-0123456789";
const SCREENSHOT = fileURLToPath(new URL("../../test-artifacts/inspector.png", import.meta.url));
const HOSTILE = `<img src=x onerror="document.title='pwned'"> is only text`;

interface Inspector {
  running: RunningServer;
  page: Page;
  /** Messages of the confirmations the page asked, in order. */
  confirmations: string[];
  /** What the next confirmation gets. */
  answer: { next: "accept" | "dismiss" };
  /** Uncaught page errors and CSP violations: none are expected. */
  problems: string[];
}

let launched: Promise<Browser> | undefined;

/** One browser for the file, launched by the first test; each test fails when chromium is missing. */
function browser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the inspector's browser test needs Debian's chromium. ` +
        "Install it with `apt-get install -y chromium` (.ci/run does this in CI).",
    );
  }
  launched ??= chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  return launched;
}

afterAll(async () => {
  // A launch that failed has already failed the tests that asked for it.
  await launched?.then(
    (running) => running.close(),
    () => undefined,
  );
});

/** A real server with a token and a few memories, and a fresh browser tab on its inspector. */
async function openInspector(): Promise<Inspector> {
  const chromiumBrowser = await browser();
  const running = await startServer({
    workspaceDir: tempWorkspace(),
    host: "127.0.0.1",
    port: 0,
    env: { CLAW_MEMORY_API_KEY: TOKEN },
    embeddings: null,
  });
  onTestFinished(() => running.close());
  await running.memory.store("user_tz", "The user lives in Lisbon (UTC+0)");
  await running.memory.store("standup", "Standup moved to 9:30 on Mondays", { category: "daily" });
  await running.memory.store("editor", "The user edits code in Helix");
  await running.memory.store("html", HOSTILE, { category: "note" });
  await running.memory.store("work_repo", "The work repository is claw-memory", { namespace: "work" });

  const context = await chromiumBrowser.newContext({ viewport: { width: 1100, height: 900 } });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  const inspector: Inspector = { running, page, confirmations: [], answer: { next: "accept" }, problems: [] };
  page.on("dialog", (dialog) => {
    inspector.confirmations.push(dialog.message());
    void (inspector.answer.next === "accept" ? dialog.accept() : dialog.dismiss());
  });
  page.on("pageerror", (error) => inspector.problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) inspector.problems.push(message.text());
  });
  await page.goto(`${running.url}/`);
  return inspector;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Waits until an element matching `selector` has exactly `text` (or text matching it). */
async function waitForText(page: Page, selector: string, text: string | RegExp): Promise<void> {
  const pattern = typeof text === "string" ? new RegExp(`^${escapeRegExp(text)}$`) : text;
  await page.locator(selector, { hasText: pattern }).first().waitFor();
}

async function connect(page: Page, token: string): Promise<void> {
  await page.fill("#token", token);
  await page.click("#connect");
}

const keysShown = (page: Page) => page.locator("#entries .entry .key").allTextContents();
const entry = (page: Page, key: string) =>
  page
    .locator("#entries .entry")
    .filter({ has: page.locator(".key", { hasText: new RegExp(`^${escapeRegExp(key)}$`) }) });

/** Waits for the page to finish the action it is running. */
const idle = (page: Page) => page.locator("body:not(.busy)").waitFor();

describe("web inspector in a browser", () => {
  it("shows the status and the newest memories once a token is typed in, as text", async () => {
    const { running, page, problems } = await openInspector();
    expect(await page.locator("#error").isHidden()).toBe(true);
    await connect(page, TOKEN);
    await waitForText(page, '#status [data-field="entries"]', "5 in 2 namespaces");
    await waitForText(page, '#status [data-field="embedding"]', /^keyword-only/);
    expect(await page.locator('#status [data-field="vector"]').textContent()).toBe(
      (await running.memory.status()).vector,
    );
    await page.locator("#entries .entry").nth(3).waitFor();
    const listed = await running.memory.list({ namespace: "default", limit: 50 });
    expect(await keysShown(page)).toEqual(listed.map((e) => e.key));
    const standup = entry(page, "standup");
    expect(await standup.locator(".category").textContent()).toBe("daily");
    expect(await standup.locator(".content").textContent()).toBe("Standup moved to 9:30 on Mondays");
    expect(await standup.locator("time.created").getAttribute("datetime")).toBe(
      listed.find((e) => e.key === "standup")?.createdAt,
    );
    expect(await standup.locator(".importance").textContent()).toMatch(/^importance \d\.\d\d$/);
    // Memory content is untrusted: shown as text, never parsed as HTML.
    expect(await entry(page, "html").locator(".content").textContent()).toBe(HOSTILE);
    expect(await page.locator("#entries img").count()).toBe(0);
    expect(await page.title()).toBe("claw-memory inspector");

    // The token stays in this tab's sessionStorage: never localStorage, never the URL.
    const where = await page.evaluate(
      "({ session: sessionStorage.getItem('claw-memory-token'), local: localStorage.length, href: location.href })",
    );
    expect(where).toEqual({ session: TOKEN, local: 0, href: `${running.url}/` });

    // Every namespace the token may read, then a reload that keeps the token for this tab.
    await page.fill("#namespace", "*");
    await page.click("#show");
    await entry(page, "work_repo").waitFor();
    expect(await entry(page, "work_repo").locator(".namespace").textContent()).toBe("work");
    await page.reload();
    await page.locator("#entries .entry").first().waitFor();
    expect(await page.inputValue("#namespace")).toBe("default");
    expect(problems).toEqual([]);
  });

  it("recalls with scores, edits one entry and forgets another behind confirmations", async () => {
    const { running, page, confirmations, answer, problems } = await openInspector();
    await connect(page, TOKEN);
    await entry(page, "standup").waitFor();

    await page.fill("#query", "where does the user live");
    await page.click("#recall");
    await page.locator("#entries .entry .score").first().waitFor();
    expect((await keysShown(page))[0]).toBe("user_tz");
    expect(await page.locator("#entries .entry .score").first().textContent()).toMatch(/^score [01]\.\d{3}$/);
    expect(await page.textContent("#view-title")).toMatch(/for “where does the user live”/);

    // Back to the list, then edit "standup".
    await page.fill("#query", "");
    await waitForText(page, "#view-title", /^Memories in default,/);
    await entry(page, "standup").locator("button.edit").click();
    await page.locator("#editor").waitFor();
    expect(await page.inputValue("#edit-content")).toBe("Standup moved to 9:30 on Mondays");
    await page.fill("#edit-content", "Standup moved to 10:00 on Tuesdays");
    await page.fill("#edit-importance", "0.9");
    await page.click("#edit-save");
    await waitForText(page, "#notice", "Saved “standup”.");
    await idle(page);
    expect(confirmations.at(-1)).toContain("Save the changes to “standup”");
    await waitForText(page, "#entries .entry:first-child .content", "Standup moved to 10:00 on Tuesdays");
    expect(await page.locator("#editor").isHidden()).toBe(true);
    const edited = await running.memory.get("standup");
    expect(edited).toMatchObject({
      content: "Standup moved to 10:00 on Tuesdays",
      category: "daily",
      importance: 0.9,
    });

    // Forget "editor": dismissed once (nothing happens), then accepted.
    answer.next = "dismiss";
    await entry(page, "editor").locator("button.forget").click();
    await idle(page);
    expect(confirmations.at(-1)).toContain("Forget “editor”");
    expect(await running.memory.get("editor")).not.toBeNull();
    answer.next = "accept";
    await entry(page, "editor").locator("button.forget").click();
    await waitForText(page, "#notice", "Forgot “editor”.");
    await idle(page);
    expect(await page.textContent('#status [data-field="entries"]')).toBe("4 in 2 namespaces");
    expect(await running.memory.get("editor")).toBeNull();
    expect(await keysShown(page)).not.toContain("editor");
    expect(confirmations).toHaveLength(3);

    await page.fill("#query", "user standup tuesdays");
    await page.click("#recall");
    await waitForText(page, "#view-title", "2 results for “user standup tuesdays”, best first");
    expect(await keysShown(page)).toEqual(["standup", "user_tz"]);
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(problems).toEqual([]);
  });

  it("exports the namespace as an NDJSON download", async () => {
    const { page, problems } = await openInspector();
    await connect(page, TOKEN);
    await entry(page, "standup").waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
    expect(download.suggestedFilename()).toBe("claw-memory-default.ndjson");
    const lines = readFileSync(await download.path(), "utf8")
      .trim()
      .split("\n");
    const keys = lines.map((line) => (JSON.parse(line) as { key: string; namespace: string }).key);
    expect(keys.sort()).toEqual(["editor", "html", "standup", "user_tz"]);
    await waitForText(page, "#notice", "Exported 4 entries as claw-memory-default.ndjson.");
    expect(problems).toEqual([]);
  });

  it("shows the API's errors in the page: a wrong token, a memory already gone", async () => {
    const { running, page } = await openInspector();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    await connect(page, "not-the-token");
    await page.locator("#error").waitFor();
    expect(await page.textContent("#error")).toMatch(/^UNAUTHORIZED: .*Paste a valid token above/);
    expect(await page.locator("#entries .entry").count()).toBe(0);

    await connect(page, TOKEN);
    await entry(page, "editor").waitFor();
    expect(await page.locator("#error").isHidden()).toBe(true);
    // Someone else forgets it while the page still lists it.
    await running.memory.forget("editor");
    await entry(page, "editor").locator("button.forget").click();
    await page.locator("#error").waitFor();
    expect(await page.textContent("#error")).toBe(
      'NOT_FOUND: no memory with key "editor" in namespace "default"',
    );
    expect(problems).toEqual([]);
  });
});
