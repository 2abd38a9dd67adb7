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
    // Longer than a passage (100 words): its why line says what its length left of its keyword score.
    await running.memory.store(
      "travel",
      `The user lives out of a suitcase. ${"Trains, hostels and cafes. ".repeat(30)}`,
    );
    await connect(page, TOKEN);
    await entry(page, "standup").waitFor();

    await page.fill("#query", "where does the user live");
    await page.click("#recall");
    await page.locator("#entries .entry .score").first().waitFor();
    expect((await keysShown(page))[0]).toBe("user_tz");
    const score = await page.locator("#entries .entry .score").first().textContent();
    expect(score).toMatch(/^score [01]\.\d{3}$/);
    expect(await page.textContent("#view-title")).toMatch(/for “where does the user live”/);
    // Under each result, why it came back: the score as the product of its parts.
    const why = (await page.locator("#entries .entry .why").first().textContent()) ?? "";
    expect(why.startsWith(`why: ${score?.slice("score ".length)} = relevance `)).toBe(true);
    expect(why).toMatch(/× recency \d\.\d{2} · keyword #\d+ .*\[[a-z, ]*user[a-z, ]*\] · fusion \w+/);
    expect(why).not.toContain("words (keyword");
    const travel = (await entry(page, "travel").locator(".why").textContent()) ?? "";
    expect(travel).toMatch(/ · 127 words \(keyword × 0\.89\)/);
    expect(await running.memory.forget("travel")).toBe(true);

    // Back to the list, then edit "standup".
    await page.fill("#query", "");
    await waitForText(page, "#view-title", /^Memories in default,/);
    await entry(page, "standup").locator("button.edit").click();
    await page.locator("#editor").waitFor();
    expect(await page.inputValue("#edit-content")).toBe("Standup moved to 9:30 on Mondays");
    await page.fill("#edit-content", "Standup moved to 10:00 in the atrium");
    await page.fill("#edit-importance", "0.9");
    await page.click("#edit-save");
    await waitForText(page, "#notice", "Saved “standup”.");
    await idle(page);
    expect(confirmations.at(-1)).toContain("Save the changes to “standup”");
    await waitForText(page, "#entries .entry:first-child .content", "Standup moved to 10:00 in the atrium");
    expect(await page.locator("#editor").isHidden()).toBe(true);
    const edited = await running.memory.get("standup");
    expect(edited).toMatchObject({
      content: "Standup moved to 10:00 in the atrium",
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

    // No weekday or month in the query: every entry is indexed with its date ("Tuesday"), so a
    // query naming today's weekday would find all of them.
    await page.fill("#query", "user standup atrium");
    await page.click("#recall");
    await waitForText(page, "#view-title", "2 results for “user standup atrium”, best first");
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

  it("shows metadata and expiry, filters by metadata, and restores version 1 from an entry's history", async () => {
    const { running, page, confirmations, problems } = await openInspector();
    const first = await running.memory.store("release", "Release 1.0 ships in May", {
      metadata: { project: "alpha", priority: 2 },
      ttl: "30d",
    });
    await running.memory.store("beta_plan", "The beta plan", { metadata: { project: "beta", priority: 5 } });
    await connect(page, TOKEN);
    const release = entry(page, "release");
    await release.waitFor();
    expect(await release.locator(".metadata").textContent()).toBe('{"project":"alpha","priority":2}');
    expect(await release.locator("time.expires").getAttribute("datetime")).toBe(first.expiresAt);
    expect(await entry(page, "standup").locator(".metadata").count()).toBe(0);
    expect(await entry(page, "standup").locator("time.expires").count()).toBe(0);

    // The metadata filter: field=value pairs (values read as JSON when they are), or JSON.
    await page.fill("#where", "project=alpha");
    await page.click("#show");
    await waitForText(page, "#view-title", /^Memories in default with metadata \{"project":"alpha"\},/);
    expect(await keysShown(page)).toEqual(["release"]);
    await page.fill("#where", "priority=5");
    await page.click("#show");
    await waitForText(page, "#view-title", /^Memories in default with metadata \{"priority":5\},/);
    expect(await keysShown(page)).toEqual(["beta_plan"]);
    await page.fill("#where", '{"priority":{"$gte":2}}');
    await page.click("#show");
    await waitForText(
      page,
      "#view-title",
      /\{"priority":\{"\$gte":2\}\}, most recently updated first \(2 shown\)$/,
    );
    expect((await keysShown(page)).sort()).toEqual(["beta_plan", "release"]);
    // The server's own validation comes back as the page's error.
    await page.fill("#where", '{"priority":{"$like":2}}');
    await page.click("#show");
    await page.locator("#error").waitFor();
    expect(await page.textContent("#error")).toMatch(
      /^INVALID_INPUT: where\.priority\.\$like: unknown operator/,
    );
    await page.fill("#where", "");
    await page.click("#show");
    await waitForText(page, "#view-title", /^Memories in default, most recently updated first/);

    // Update it in the editor: content and metadata; its expiry is kept.
    await release.locator("button.edit").click();
    expect(await page.inputValue("#edit-metadata")).toBe('{"project":"alpha","priority":2}');
    await page.fill("#edit-content", "Release 1.0 slips to June");
    await page.fill("#edit-metadata", '{"project":"alpha","priority":3}');
    await page.click("#edit-save");
    await waitForText(page, "#notice", "Saved “release”.");
    await idle(page);
    await waitForText(page, "#entries .entry:first-child .content", "Release 1.0 slips to June");
    expect(await running.memory.get("release")).toMatchObject({
      content: "Release 1.0 slips to June",
      metadata: { project: "alpha", priority: 3 },
      expiresAt: first.expiresAt,
    });

    // Its history: the update by the token, the creation by the library; only v1 can be restored.
    await release.locator("button.history").click();
    await page.locator("#history #versions .version").nth(1).waitFor();
    expect(await page.textContent("#history-key")).toBe("release");
    expect(await page.textContent("#history-namespace")).toBe("default");
    const versions = page.locator("#versions .version");
    const row = async (index: number) => {
      const version = versions.nth(index);
      return [
        await version.locator(".number").textContent(),
        await version.locator(".action").textContent(),
        await version.locator(".actor").textContent(),
        await version.locator(".content").textContent(),
        await version.locator(".metadata").textContent(),
        await version.locator("button.restore").count(),
      ];
    };
    expect(await row(0)).toEqual([
      "v2",
      "update",
      "by token:CLAW_MEMORY_API_KEY",
      "Release 1.0 slips to June",
      '{"project":"alpha","priority":3}',
      0,
    ]);
    expect(await row(1)).toEqual([
      "v1",
      "create",
      "by library",
      "Release 1.0 ships in May",
      '{"project":"alpha","priority":2}',
      1,
    ]);
    expect(await versions.nth(0).locator(".state").textContent()).toBe("current");

    await page.locator('#versions .version[data-version="1"] button.restore').click();
    await waitForText(page, "#notice", "Restored version 1 of “release”.");
    await idle(page);
    expect(confirmations.at(-1)).toBe("Restore version 1 of “release” in namespace default?");
    await waitForText(page, "#versions .version:first-child .action", "restore");
    expect(await row(0)).toEqual([
      "v3",
      "restore",
      "by token:CLAW_MEMORY_API_KEY",
      "Release 1.0 ships in May",
      '{"project":"alpha","priority":2}',
      0,
    ]);
    await page.click("#history-close");
    expect(await page.locator("#history").isHidden()).toBe(true);
    // The list shows version 1's content and metadata again, and so does the library.
    expect(await release.locator(".content").textContent()).toBe("Release 1.0 ships in May");
    expect(await release.locator(".metadata").textContent()).toBe('{"project":"alpha","priority":2}');
    expect(await running.memory.get("release")).toMatchObject({
      content: "Release 1.0 ships in May",
      metadata: { project: "alpha", priority: 2 },
    });
    expect(problems).toEqual([]);
  });

  it("brings a forgotten memory back through the history of its key", async () => {
    const { running, page, problems } = await openInspector();
    await connect(page, TOKEN);
    await entry(page, "editor").locator("button.forget").click();
    await waitForText(page, "#notice", "Forgot “editor”.");
    await idle(page);
    expect(await keysShown(page)).not.toContain("editor");

    await page.fill("#lookup-key", "editor");
    await page.click("#lookup-history");
    await page.locator("#versions .version").nth(1).waitFor();
    const forgotten = page.locator('#versions .version[data-version="2"]');
    expect(await forgotten.locator(".action").textContent()).toBe("forget");
    expect(await forgotten.locator(".state").textContent()).toBe("deleted");
    // A tombstone records the deletion: only the version before it can be restored.
    expect(await forgotten.locator("button.restore").count()).toBe(0);
    await page.locator('#versions .version[data-version="1"] button.restore').click();
    await waitForText(page, "#notice", "Restored version 1 of “editor”.");
    await idle(page);
    await entry(page, "editor").waitFor();
    expect(await entry(page, "editor").locator(".content").textContent()).toBe(
      "The user edits code in Helix",
    );
    expect((await running.memory.history("editor")).map((v) => [v.version, v.action, v.actor])).toEqual([
      [3, "restore", "token:CLAW_MEMORY_API_KEY"],
      [2, "forget", "token:CLAW_MEMORY_API_KEY"],
      [1, "create", "library"],
    ]);

    // A key that never existed has no history.
    await page.click("#history-close");
    await page.fill("#lookup-key", "never-stored");
    await page.click("#lookup-history");
    await waitForText(page, "#history-key", "never-stored");
    await page.locator("#history-empty").waitFor();
    expect(await page.locator("#versions .version").count()).toBe(0);
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
