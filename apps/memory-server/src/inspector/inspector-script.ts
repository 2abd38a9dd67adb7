// The inspector's browser code, as a string the page inlines (no build step, no CDN). It talks to
// the HTTP API only, with the token from sessionStorage, and inserts every server-sent text with
// textContent: memory content is untrusted. Written without backticks or "${": String.raw keeps the
// rest (backslashes included) byte for byte, and the page's CSP allows exactly this script by its hash.
// The metadata filter and the history dialog are in inspector-history-script.ts, appended (its
// functions are hoisted like these, so the order does not matter).
import { INSPECTOR_HISTORY_SCRIPT } from "./inspector-history-script.js";

export const INSPECTOR_SCRIPT =
  String.raw`
"use strict";
const TOKEN_KEY = "claw-memory-token";
const byId = (id) => document.getElementById(id);
const state = { view: "list", query: "", offset: 0, editing: null, history: null, namespaces: new Set(["default", "*"]) };

class ApiError extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function url(path, params) {
  return params === undefined ? path : path + "?" + new URLSearchParams(params).toString();
}

// The path of one entry. A URL path resolves "." and ".." segments (even percent-encoded) before
// the request is sent, so those two keys cannot be addressed from a browser.
function keyPath(key, cli) {
  if (key === "." || key === "..") {
    throw new ApiError("INVALID_INPUT", "the key “" + key + "” cannot be sent in a URL by a browser; use claw-memory " + cli);
  }
  return "v1/memories/" + encodeURIComponent(key);
}

// Every call: the token (if any) as a bearer header, errors turned into ApiError(code, message).
async function api(method, path, body) {
  const headers = {};
  const token = sessionStorage.getItem(TOKEN_KEY) || "";
  if (token !== "") headers.authorization = "Bearer " + token;
  if (body !== undefined) headers["content-type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method, headers, cache: "no-store", credentials: "omit",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError("NETWORK", "the server could not be reached (" + String(error && error.message) + ")");
  }
  if (response.ok) return response;
  let code = "HTTP_" + response.status;
  let message = response.statusText || "request failed";
  try {
    const payload = await response.json();
    if (payload && payload.error) {
      code = String(payload.error.code);
      message = String(payload.error.message);
    }
  } catch (error) {
    message += " (the answer was not JSON: " + String(error && error.message) + ")";
  }
  if (response.status === 401) message += ". Paste a valid token above and press Connect.";
  throw new ApiError(code, message);
}

async function apiJson(method, path, body) {
  return (await api(method, path, body)).json();
}

function showError(error, boxId) {
  const box = byId(boxId || "error");
  if (error === null) { box.textContent = ""; box.hidden = true; return; }
  box.textContent = error instanceof ApiError
    ? error.code + ": " + error.message
    : "Unexpected error: " + String((error && error.message) || error);
  box.hidden = false;
}

function notice(text) { byId("notice").textContent = text; }

// Runs one user action: clears the previous error, shows this one's, never throws.
async function run(action, errorBox) {
  showError(null, "error");
  showError(null, "edit-error");
  showError(null, "history-error");
  document.body.classList.add("busy");
  try {
    await action();
  } catch (error) {
    showError(error, errorBox);
  } finally {
    document.body.classList.remove("busy");
  }
}

function currentNamespace() {
  const input = byId("namespace");
  const value = input.value.trim();
  if (value === "") input.value = "default";
  return value || "default";
}

function currentLimit() {
  const limit = Number.parseInt(byId("limit").value, 10);
  return Number.isInteger(limit) && limit > 0 ? limit : 50;
}

async function loadStatus() {
  const status = await apiJson("GET", "v1/status");
  const embedding = status.embedding
    ? status.embedding.provider + " / " + status.embedding.model + " (" + status.embedding.dimensions + " dimensions)"
    : "keyword-only" + (status.embeddingUnavailableReason ? ": " + status.embeddingUnavailableReason : "");
  const rows = [
    ["entries", "Entries", status.entries + " in " + status.namespaces + " namespace" + (status.namespaces === 1 ? "" : "s")],
    ["backend", "Store", status.backend + (status.path ? " (" + status.path + ")" : "")],
    ["embedding", "Embeddings", embedding],
    ["vector", "Vector search", status.vector],
    ["fts", "Full-text index", status.fts ? "yes" : "no"],
    ["pending", "Pending embeddings", status.pendingEmbeddings + (status.missingEmbeddings ? ", " + status.missingEmbeddings + " missing" : "")],
  ];
  const list = byId("status");
  list.replaceChildren();
  for (const [field, label, value] of rows) {
    const term = el("dt", "", label);
    const detail = el("dd", "", String(value));
    detail.dataset.field = field;
    list.append(term, detail);
  }
  const warnings = byId("warnings");
  warnings.replaceChildren(...(status.warnings || []).map((text) => el("li", "", text)));
}

function timeElement(label, iso) {
  const node = el("time", label);
  node.dateTime = iso;
  node.title = iso;
  const date = new Date(iso);
  node.textContent = label + " " + (Number.isNaN(date.getTime()) ? iso : date.toLocaleString());
  return node;
}

function entryItem(entry, withScore) {
  const item = el("li", "entry");
  const head = el("div", "head");
  head.append(el("code", "key", entry.key), el("span", "badge category", entry.category), el("span", "badge namespace", entry.namespace));
  if (withScore && typeof entry.score === "number") head.append(el("span", "score", "score " + entry.score.toFixed(3)));
  if (entry.supersededBy) head.append(el("span", "badge superseded", "superseded by " + entry.supersededBy));
  const meta = el("div", "meta");
  meta.append(timeElement("created", entry.createdAt), timeElement("updated", entry.updatedAt));
  meta.append(el("span", "importance", "importance " + (typeof entry.importance === "number" ? entry.importance.toFixed(2) : "not set")));
  if (entry.sessionId) meta.append(el("span", "session", "session " + entry.sessionId));
  if (entry.source) meta.append(el("span", "source", entry.source.path + ":" + entry.source.startLine + "-" + entry.source.endLine));
  appendDetails(meta, entry);
  const edit = el("button", "edit", "Edit");
  edit.type = "button";
  edit.addEventListener("click", () => openEditor(entry));
  const history = el("button", "history", "History");
  history.type = "button";
  history.addEventListener("click", () => { void run(() => openHistory(entry.key, entry.namespace)); });
  const forget = el("button", "forget danger", "Forget");
  forget.type = "button";
  forget.addEventListener("click", () => { void run(() => forgetEntry(entry)); });
  const actions = el("div", "actions");
  actions.append(edit, history, forget);
  item.append(head, meta, el("p", "content", entry.content));
  if (withScore && entry.explain) item.append(el("p", "why", whyText(entry.explain)));
  item.append(actions);
  return item;
}

// Why recall returned an entry: its score as the product of its parts, then the lists it came from.
function whyText(why) {
  const parts = ["why: " + why.score.toFixed(3) + " = relevance " + why.relevance.toFixed(3) +
    " (coverage " + why.coverage.toFixed(2) + ", strength " + why.strength.toFixed(2) + ") × recency " + why.recency.toFixed(2)];
  if (why.keyword) {
    parts.push("keyword #" + why.keyword.rank + (why.keyword.neighbour > 0 ? " (partly from its session neighbours)" : "") +
      (why.keyword.terms.length > 0 ? " [" + why.keyword.terms.join(", ") + "]" : ""));
  }
  if (why.vector) parts.push("vector #" + why.vector.rank + " (cosine " + why.vector.similarity.toFixed(3) + ")");
  parts.push("fusion " + why.fusion);
  if (why.length) parts.push(why.length.words + " words (keyword × " + why.length.factor.toFixed(2) + ")");
  if (why.mmr !== undefined) parts.push("mmr #" + why.mmr);
  return parts.join(" · ");
}

// The expiry and the caller's metadata (compact JSON, as text) of an entry or a version.
function appendDetails(meta, entry) {
  if (entry.expiresAt) meta.append(timeElement("expires", entry.expiresAt));
  if (entry.metadata !== undefined) {
    const metadata = el("code", "metadata", JSON.stringify(entry.metadata));
    metadata.title = "metadata";
    meta.append(metadata);
  }
}

function renderEntries(entries, append, withScore) {
  const list = byId("entries");
  if (!append) list.replaceChildren();
  for (const entry of entries) {
    list.append(entryItem(entry, withScore));
    state.namespaces.add(entry.namespace);
  }
  byId("empty").hidden = list.children.length > 0;
  byId("namespaces").replaceChildren(...[...state.namespaces].map((ns) => { const o = el("option"); o.value = ns; return o; }));
}

async function loadList(append) {
  const namespace = currentNamespace();
  const where = currentWhere();
  const offset = append ? state.offset : 0;
  const params = { namespace, limit: String(currentLimit()), offset: String(offset) };
  if (where !== undefined) params.where = JSON.stringify(where);
  const page = await apiJson("GET", url("v1/memories", params));
  state.view = "list";
  state.offset = offset + page.entries.length;
  renderEntries(page.entries, append, false);
  byId("view-title").textContent = (namespace === "*" ? "Memories in every namespace this token may read" : "Memories in " + namespace) +
    describeWhere(where) + ", most recently updated first (" + state.offset + " shown)";
  byId("more").hidden = page.entries.length < page.limit;
}

async function recall(query) {
  const body = { query, namespace: currentNamespace(), limit: currentLimit(), explain: true };
  const where = currentWhere();
  if (where !== undefined) body.where = where;
  const answer = await apiJson("POST", "v1/recall", body);
  state.view = "recall";
  state.query = query;
  renderEntries(answer.results, false, true);
  byId("view-title").textContent = answer.results.length + " result" + (answer.results.length === 1 ? "" : "s") + " for “" + query + "”" +
    describeWhere(where) + ", best first";
  byId("more").hidden = true;
}

async function refreshView() {
  await Promise.all([loadStatus(), state.view === "recall" ? recall(state.query) : loadList(false)]);
}

function openEditor(entry) {
  state.editing = entry;
  showError(null, "edit-error");
  byId("edit-key").textContent = entry.key;
  byId("edit-namespace").textContent = entry.namespace;
  byId("edit-category").value = entry.category;
  byId("edit-importance").value = typeof entry.importance === "number" ? String(entry.importance) : "";
  byId("edit-content").value = entry.content;
  byId("edit-metadata").value = entry.metadata === undefined ? "" : JSON.stringify(entry.metadata);
  byId("editor").showModal();
  byId("edit-content").focus();
}

// Re-stores the entry (an upsert by namespace and key) with what the form says.
async function saveEdit() {
  const entry = state.editing;
  if (entry === null) return;
  const body = {
    key: entry.key,
    namespace: entry.namespace,
    content: byId("edit-content").value,
    category: byId("edit-category").value.trim() || entry.category,
  };
  const importance = byId("edit-importance").value.trim();
  if (importance !== "") body.importance = Number(importance);
  if (entry.sessionId) body.sessionId = entry.sessionId;
  if (entry.context) body.context = entry.context;
  // A store replaces the whole entry: what the form does not show is sent as it was.
  if (entry.expiresAt) body.expiresAt = entry.expiresAt;
  const metadata = byId("edit-metadata").value.trim();
  if (metadata !== "") {
    try {
      body.metadata = JSON.parse(metadata);
    } catch (error) {
      throw new ApiError("INVALID_INPUT", "metadata: not valid JSON (" + String(error && error.message) + ")");
    }
  }
  if (!confirm("Save the changes to “" + entry.key + "” in namespace " + entry.namespace + "?")) return;
  await apiJson("POST", "v1/memories", body);
  byId("editor").close();
  state.editing = null;
  notice("Saved “" + entry.key + "”.");
  await refreshView();
}

async function forgetEntry(entry) {
  const path = keyPath(entry.key, "forget");
  if (!confirm("Forget “" + entry.key + "” in namespace " + entry.namespace + "? Its history keeps it: History can restore it.")) return;
  await apiJson("DELETE", url(path, { namespace: entry.namespace }));
  notice("Forgot “" + entry.key + "”.");
  await refreshView();
}

// The export needs the Authorization header, so it is fetched and offered as a file.
async function exportNdjson() {
  const namespace = currentNamespace();
  const params = { namespace };
  const where = currentWhere();
  if (where !== undefined) params.where = JSON.stringify(where);
  const response = await api("GET", url("v1/export", params));
  const text = await response.text();
  const count = text.split("\n").filter((line) => line.trim() !== "").length;
  const link = el("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  link.download = "claw-memory-" + (namespace === "*" ? "all" : namespace.replace(/[^A-Za-z0-9._-]+/g, "_")) + ".ndjson";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  notice("Exported " + count + " entr" + (count === 1 ? "y" : "ies") + " as " + link.download + ".");
}

function connect() {
  sessionStorage.setItem(TOKEN_KEY, byId("token").value.trim());
  state.view = "list";
  byId("query").value = "";
  notice("");
  return refreshView();
}

byId("auth").addEventListener("submit", (event) => { event.preventDefault(); void run(connect); });
byId("disconnect").addEventListener("click", () => {
  sessionStorage.removeItem(TOKEN_KEY);
  showError(null);
  byId("token").value = "";
  byId("status").replaceChildren();
  byId("warnings").replaceChildren();
  byId("entries").replaceChildren();
  if (byId("history").open) byId("history").close();
  byId("more").hidden = true;
  byId("view-title").textContent = "Memories";
  notice("The token is forgotten in this tab.");
});
byId("controls").addEventListener("submit", (event) => {
  event.preventDefault();
  byId("query").value = "";
  void run(() => loadList(false));
});
byId("search").addEventListener("submit", (event) => {
  event.preventDefault();
  const query = byId("query").value.trim();
  void run(() => (query === "" ? loadList(false) : recall(query)));
});
byId("query").addEventListener("input", () => {
  if (byId("query").value === "" && state.view === "recall") void run(() => loadList(false));
});
byId("more").addEventListener("click", () => { void run(() => loadList(true)); });
byId("export").addEventListener("click", () => { void run(exportNdjson); });
byId("edit-form").addEventListener("submit", (event) => { event.preventDefault(); void run(saveEdit, "edit-error"); });
byId("edit-cancel").addEventListener("click", () => { state.editing = null; byId("editor").close(); });

const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved === null) {
  notice("Paste a bearer token and press Connect (leave it empty when the server runs without tokens).");
} else {
  byId("token").value = saved;
  void run(refreshView);
}
` + INSPECTOR_HISTORY_SCRIPT;
