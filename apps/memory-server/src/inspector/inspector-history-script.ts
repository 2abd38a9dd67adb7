// The inspector's metadata filter and history dialog: part of the page's one script (joined into
// INSPECTOR_SCRIPT, see inspector-script.ts), under the same rules: every server-sent text goes in
// with textContent, and the code has no backticks or "${" (String.raw keeps it byte for byte).

export const INSPECTOR_HISTORY_SCRIPT = String.raw`
// The metadata filter box, as the API's where filter: a JSON object as typed, or field=value pairs
// separated by commas, each value read as JSON when it is one (2, true, "quoted") and as text
// otherwise. Empty: no filter. The server checks what the filter means.
function currentWhere() {
  const text = byId("where").value.trim();
  if (text === "") return undefined;
  if (text.startsWith("{")) {
    let value;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ApiError("INVALID_INPUT", "where: not valid JSON (" + String(error && error.message) + ")");
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new ApiError("INVALID_INPUT", "where: expected a JSON object");
    }
    return value;
  }
  const where = {};
  for (const pair of text.split(/\s*[,&]\s*/)) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const field = equals < 0 ? "" : pair.slice(0, equals).trim();
    if (field === "") {
      throw new ApiError("INVALID_INPUT", "where: expected field=value pairs or a JSON object, got “" + pair + "”");
    }
    const raw = pair.slice(equals + 1).trim();
    let value = raw;
    try { value = JSON.parse(raw); } catch { value = raw; }
    where[field] = value;
  }
  return where;
}

function describeWhere(where) {
  return where === undefined ? "" : " with metadata " + JSON.stringify(where);
}

function versionItem(version) {
  const item = el("li", "entry version" + (version.current ? " current" : "") + (version.deleted ? " deleted" : ""));
  item.dataset.version = String(version.version);
  const head = el("div", "head");
  head.append(
    el("span", "badge number", "v" + version.version),
    el("span", "badge action", version.action),
    el("span", "actor", "by " + version.actor),
    timeElement("at", version.at),
  );
  if (version.current) head.append(el("span", "badge state", "current"));
  if (version.deleted) head.append(el("span", "badge state superseded", "deleted"));
  const meta = el("div", "meta");
  meta.append(el("span", "badge category", version.category));
  if (typeof version.importance === "number") meta.append(el("span", "importance", "importance " + version.importance.toFixed(2)));
  if (version.supersededBy) meta.append(el("span", "superseded", "superseded by " + version.supersededBy));
  appendDetails(meta, version);
  item.append(head, meta, el("p", "content", version.content));
  // A tombstone records a deletion (restore the version before it); the current one is already live.
  if (!version.deleted && !version.current) {
    const restore = el("button", "restore", "Restore");
    restore.type = "button";
    restore.addEventListener("click", () => { void run(() => restoreVersion(version.version), "history-error"); });
    const actions = el("div", "actions");
    actions.append(restore);
    item.append(actions);
  }
  return item;
}

// Lists the versions of one key in the history dialog (opening it when it is closed).
async function openHistory(key, namespace) {
  const answer = await apiJson("GET", url(keyPath(key, "history") + "/history", { namespace }));
  state.history = { key, namespace };
  byId("history-key").textContent = key;
  byId("history-namespace").textContent = namespace;
  byId("versions").replaceChildren(...answer.versions.map(versionItem));
  byId("history-empty").hidden = answer.versions.length > 0;
  if (!byId("history").open) byId("history").showModal();
}

async function restoreVersion(version) {
  const target = state.history;
  if (target === null) return;
  if (!confirm("Restore version " + version + " of “" + target.key + "” in namespace " + target.namespace + "?")) return;
  await apiJson("POST", keyPath(target.key, "restore") + "/restore", { version, namespace: target.namespace });
  notice("Restored version " + version + " of “" + target.key + "”.");
  await Promise.all([openHistory(target.key, target.namespace), refreshView()]);
}

byId("lookup").addEventListener("submit", (event) => {
  event.preventDefault();
  const key = byId("lookup-key").value;
  void run(() => {
    if (key.trim() === "") throw new ApiError("INVALID_INPUT", "key: type the key whose history to show");
    return openHistory(key, currentNamespace());
  });
});
byId("history-close").addEventListener("click", () => byId("history").close());
byId("history").addEventListener("close", () => { state.history = null; });
`;
