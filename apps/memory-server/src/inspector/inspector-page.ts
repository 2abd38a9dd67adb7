// The web inspector served at GET /: one static page (no build step, no CDN, works offline). It
// holds no data: it asks for a token and reads and writes through the HTTP API like any client.
import { createHash } from "node:crypto";
import { INSPECTOR_SCRIPT } from "./inspector-script.js";

const STYLE = `
  :root { color-scheme: light dark; --line: #8884; --muted: #777; --accent: #06c; --danger: #c33; }
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 64rem; padding: 1rem; }
  body.busy { cursor: progress; }
  [hidden] { display: none !important; }
  header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; justify-content: space-between; }
  h1 { font-size: 1.4rem; margin: 0; } h2 { font-size: 1.1rem; margin: 1.2rem 0 .5rem; }
  form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .5rem 0; }
  input, textarea, button { font: inherit; padding: .3rem .5rem; }
  input[type=search] { flex: 1; min-width: 12rem; } #token { width: 18rem; } #limit { width: 5rem; }
  button { cursor: pointer; } .danger { color: var(--danger); }
  code, .content, textarea { font-family: ui-monospace, monospace; font-size: 13px; }
  #error, .dialog-error { color: var(--danger); border: 1px solid var(--danger); border-radius: 4px; padding: .4rem .6rem; }
  #notice { color: var(--muted); min-height: 1.5em; margin: .3rem 0; }
  #status { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0; }
  #status dt { color: var(--muted); } #status dd { margin: 0; }
  #warnings { color: var(--danger); margin: .3rem 0; }
  #entries { list-style: none; padding: 0; margin: 0; }
  .entry { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; margin: .5rem 0; }
  .head, .meta, .actions { display: flex; flex-wrap: wrap; gap: .4rem .8rem; align-items: baseline; }
  .key { font-weight: 600; word-break: break-all; }
  .badge { border: 1px solid var(--line); border-radius: 999px; padding: 0 .5rem; font-size: 12px; }
  .superseded { color: var(--danger); } .score { color: var(--accent); font-weight: 600; }
  .why { color: var(--muted); font-size: .85em; margin: .25rem 0 0; }
  .meta { color: var(--muted); font-size: 13px; }
  .content { white-space: pre-wrap; overflow-wrap: anywhere; margin: .4rem 0; max-height: 16rem; overflow: auto; }
  dialog { width: min(44rem, 92vw); border: 1px solid var(--line); border-radius: 8px; }
  dialog form { flex-direction: column; align-items: stretch; }
  dialog label { display: flex; flex-direction: column; gap: .2rem; }
  #where { flex: 1; min-width: 14rem; font-family: ui-monospace, monospace; font-size: 13px; }
  .metadata { font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; }
  .expires { color: var(--danger); }
  #history { width: min(56rem, 94vw); }
  #versions { list-style: none; padding: 0; margin: 0; max-height: 70vh; overflow: auto; }
  .version.current { border-color: var(--accent); } .version.deleted .content { text-decoration: line-through; }
  .dialog-actions { display: flex; justify-content: flex-end; margin-top: .5rem; }
`;

const BODY = `
<header>
  <h1>claw-memory inspector</h1>
  <form id="auth" autocomplete="off">
    <label for="token">Token</label>
    <input id="token" type="password" placeholder="bearer token (kept in this tab only)" autocomplete="off" spellcheck="false">
    <button id="connect">Connect</button>
    <button id="disconnect" type="button">Forget token</button>
  </form>
</header>
<p id="error" role="alert" hidden></p>
<p id="notice" role="status"></p>
<section aria-labelledby="status-title">
  <h2 id="status-title">Status</h2>
  <dl id="status"></dl>
  <ul id="warnings"></ul>
</section>
<section aria-labelledby="view-title">
  <form id="controls">
    <label for="namespace">Namespace</label>
    <input id="namespace" list="namespaces" value="default" maxlength="256" spellcheck="false" title="a namespace, or * for every namespace this token may read">
    <datalist id="namespaces"></datalist>
    <label for="limit">Limit</label>
    <input id="limit" type="number" min="1" max="1000" value="50">
    <button id="show">Show</button>
    <button id="export" type="button">Export NDJSON</button>
    <label for="where">Metadata</label>
    <input id="where" placeholder='project=alpha, priority=2 or {"priority":{"$gte":2}}' maxlength="16384" spellcheck="false" title='Only memories whose metadata matches: field=value pairs separated by commas (a value is read as JSON when it is one: 2, true, "text"), or a JSON where filter with $eq, $ne, $in, $nin, $gt, $gte, $lt, $lte, $exists. Applies to Show, Recall and Export.'>
  </form>
  <form id="search" role="search">
    <input id="query" type="search" placeholder="recall: what are you looking for?" aria-label="recall query" spellcheck="false">
    <button id="recall">Recall</button>
  </form>
  <form id="lookup">
    <input id="lookup-key" placeholder="a key, also one forgotten" aria-label="key whose history to show" maxlength="4096" spellcheck="false">
    <button id="lookup-history">History</button>
  </form>
  <h2 id="view-title">Memories</h2>
  <ol id="entries"></ol>
  <p id="empty" hidden>No memories here.</p>
  <button id="more" type="button" hidden>Load more</button>
</section>
<dialog id="editor" aria-labelledby="edit-title">
  <form id="edit-form">
    <h2 id="edit-title">Edit <code id="edit-key"></code> in <code id="edit-namespace"></code></h2>
    <p id="edit-error" class="dialog-error" role="alert" hidden></p>
    <label>Category <input id="edit-category" required maxlength="128" spellcheck="false"></label>
    <label>Importance (0 to 1; empty = computed)
      <input id="edit-importance" type="number" min="0" max="1" step="any"></label>
    <label>Content <textarea id="edit-content" rows="10" required></textarea></label>
    <label>Metadata (a JSON object; empty = none)
      <textarea id="edit-metadata" rows="3" spellcheck="false"></textarea></label>
    <div class="actions"><button id="edit-save">Save</button><button id="edit-cancel" type="button">Cancel</button></div>
  </form>
</dialog>
<dialog id="history" aria-labelledby="history-title">
  <h2 id="history-title">History of <code id="history-key"></code> in <code id="history-namespace"></code>, newest first</h2>
  <p id="history-error" class="dialog-error" role="alert" hidden></p>
  <ol id="versions"></ol>
  <p id="history-empty" hidden>No version of this key is kept.</p>
  <div class="dialog-actions"><button id="history-close" type="button">Close</button></div>
</dialog>
`;

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * Only this page's own script and style run (by hash); it may call this origin and nothing else,
 * cannot be framed (its Edit, Forget and Restore buttons), and its forms never submit anywhere (the token
 * never lands in a URL, even with scripts off). The favicon is an empty data: URL, so that loading
 * the page makes no unauthenticated request.
 */
export const INSPECTOR_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(INSPECTOR_SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self'",
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const INSPECTOR_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>claw-memory inspector</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>${BODY}<script>${INSPECTOR_SCRIPT}</script>
</body>
</html>
`;
