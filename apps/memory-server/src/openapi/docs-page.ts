// A small static API reference page: it fetches /openapi.json (with the token typed into it) and
// lists every operation with its parameters and schemas. No CDN, no server data in the page itself.

export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'";

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>claw-memory API</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #222; }
  h1 { font-size: 1.5rem; } code, pre { font: 13px ui-monospace, monospace; }
  form { margin: 1rem 0; display: flex; gap: .5rem; } input { flex: 1; padding: .3rem; }
  details { border: 1px solid #ddd; border-radius: 4px; margin: .4rem 0; padding: .4rem .6rem; }
  summary { cursor: pointer; } .m { display: inline-block; width: 4.5rem; font-weight: 600; }
  .get { color: #0a6; } .post { color: #06c; } .delete { color: #c33; }
  pre { background: #f6f6f6; padding: .5rem; overflow: auto; max-height: 24rem; }
  #error { color: #c33; }
</style>
</head>
<body>
<h1>claw-memory HTTP API</h1>
<p>Every route but <code>/healthz</code> and this page needs <code>Authorization: Bearer &lt;token&gt;</code>
when the server has tokens. The machine-readable document is <code>/openapi.json</code>.</p>
<form id="auth"><input id="token" type="password" placeholder="bearer token (kept in this tab only)" autocomplete="off">
<button>Load</button></form>
<p id="error"></p>
<div id="ops"></div>
<script>
const tokenInput = document.getElementById("token");
tokenInput.value = sessionStorage.getItem("claw-memory-token") || "";
async function load() {
  const token = tokenInput.value.trim();
  sessionStorage.setItem("claw-memory-token", token);
  const headers = token ? { Authorization: "Bearer " + token } : {};
  const ops = document.getElementById("ops");
  const error = document.getElementById("error");
  ops.replaceChildren(); error.textContent = "";
  const response = await fetch("openapi.json", { headers });
  if (!response.ok) { error.textContent = response.status + ": " + (await response.text()); return; }
  const doc = await response.json();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const box = document.createElement("details");
      const head = document.createElement("summary");
      const verb = document.createElement("span");
      verb.className = "m " + method; verb.textContent = method.toUpperCase();
      const name = document.createElement("code"); name.textContent = path;
      head.append(verb, name, " ", op.summary || "");
      const body = document.createElement("pre");
      body.textContent = JSON.stringify({ parameters: op.parameters, requestBody: op.requestBody, responses: op.responses }, null, 2);
      box.append(head, body);
      ops.append(box);
    }
  }
}
document.getElementById("auth").addEventListener("submit", (event) => { event.preventDefault(); load(); });
load();
</script>
</body>
</html>
`;
