#!/usr/bin/env node
// docs/configuration.md, generated from the one config schema: every key's type, default and range
// from the zod schema itself (memoryConfigSchema, as JSON Schema), its meaning from the JSDoc comment
// on the key in packages/memory-core/src/config/config-schema.ts. A key without a comment is an
// error. `--check` compares the committed file with what the schema gives (pnpm lint runs it).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const core = join(root, "packages/memory-core");
const schemaSource = join(core, "src/config/config-schema.ts");
const target = join(root, "docs/configuration.md");

const SECTIONS = [
  { path: ["memory"], title: "[memory]", toml: "memory" },
  { path: ["server"], title: "[server]", toml: "server" },
  { path: ["server", "tokens"], title: "[[server.tokens]]", toml: "server.tokens" },
  { path: ["providers"], title: "[providers.<name>]", toml: "providers.<name>" },
  { path: ["postgres"], title: "[postgres]", toml: "postgres" },
];

/** Keys the apps fill from the environment (libraries never read it). */
const ENVIRONMENT = {
  "postgres.url": "`CLAW_MEMORY_PG_URL`",
  "providers.<name>.api_key":
    "`OPENAI_API_KEY`, `OPENROUTER_API_KEY`, `GEMINI_API_KEY`, `VOYAGE_API_KEY` (by provider)",
};

async function main() {
  const check = process.argv.includes("--check");
  buildCore();
  const requireFromCore = createRequire(join(core, "package.json"));
  const { z } = await import(pathToFileURL(requireFromCore.resolve("zod")).href);
  const { memoryConfigSchema } = await import(pathToFileURL(join(core, "dist/config/config-schema.js")).href);
  const { camelToSnake } = await import(pathToFileURL(join(core, "dist/index.js")).href);
  const json = z.toJSONSchema(memoryConfigSchema, { io: "input", unrepresentable: "any" });
  const comments = keyComments(readFileSync(schemaSource, "utf8"));
  const missing = [];
  const text = render(json, comments, camelToSnake, missing);
  if (missing.length > 0) {
    console.error(
      `config-reference: keys without a JSDoc comment in ${schemaSource}:\n  ${missing.join("\n  ")}`,
    );
    process.exit(1);
  }
  if (check) {
    const committed = existsSync(target) ? readFileSync(target, "utf8") : "";
    if (committed !== text) {
      console.error(
        "config-reference: docs/configuration.md does not match the config schema: run `pnpm docs:config`",
      );
      process.exit(1);
    }
    console.log("config-reference: docs/configuration.md matches the schema");
    return;
  }
  writeFileSync(target, text);
  console.log(`config-reference: wrote ${target}`);
}

/**
 * The schema's types and defaults come from the built package: it is built first (turbo's cache
 * makes that a no-op when the sources did not change), so that a stale dist/ cannot pass the check.
 */
function buildCore() {
  try {
    execFileSync(
      "pnpm",
      ["turbo", "run", "build", "--filter=@claw/memory-core", "--output-logs=errors-only"],
      {
        cwd: root,
        stdio: "pipe",
      },
    );
  } catch (error) {
    process.stderr.write(`${error.stdout ?? ""}${error.stderr ?? ""}`);
    throw new Error("config-reference: building @claw/memory-core failed");
  }
}

/**
 * The JSDoc comment of every key, by schema path ("memory.backend", "server.tokens.token_env"…):
 * each `z.strictObject({ … })` declared in the file, reached from memoryConfigSchema's properties
 * through the schema variables their values name.
 */
function keyComments(sourceText) {
  const file = ts.createSourceFile("config-schema.ts", sourceText, ts.ScriptTarget.Latest, true);
  const objects = new Map();
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const literal = firstStrictObject(declaration.initializer);
      if (literal !== undefined && ts.isIdentifier(declaration.name))
        objects.set(declaration.name.text, literal);
    }
  }
  const comments = new Map();
  const walk = (variable, prefix) => {
    const literal = objects.get(variable);
    if (literal === undefined) return;
    for (const property of literal.properties) {
      if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
      const key = [...prefix, property.name.text];
      const comment = ts
        .getJSDocCommentsAndTags(property)
        .map((doc) =>
          typeof doc.comment === "string"
            ? doc.comment
            : (doc.comment ?? []).map((part) => part.text).join(""),
        )
        .join(" ")
        .replace(/\s+/g, " ")
        .trim();
      comments.set(key.join("."), comment);
      for (const name of identifiersIn(property.initializer)) if (objects.has(name)) walk(name, key);
    }
  };
  walk("memoryConfigSchema", []);
  return comments;
}

function firstStrictObject(node) {
  if (node === undefined) return undefined;
  if (ts.isCallExpression(node) && node.expression.getText().endsWith("strictObject")) {
    const [first] = node.arguments;
    if (first !== undefined && ts.isObjectLiteralExpression(first)) return first;
  }
  return ts.forEachChild(node, firstStrictObject);
}

function identifiersIn(node) {
  const names = [];
  const visit = (child) => {
    if (ts.isIdentifier(child)) names.push(child.text);
    ts.forEachChild(child, visit);
  };
  visit(node);
  return names;
}

function render(json, comments, snake, missing) {
  const lines = [
    "<!-- Generated by scripts/config-reference.mjs from packages/memory-core/src/config/config-schema.ts. Do not edit: run `pnpm docs:config`. -->",
    "",
    "# Configuration reference",
    "",
    "Every key claw-memory reads, generated from the one zod schema that also gives the TypeScript type,",
    "the defaults and the validation (`memoryConfigSchema` in `@claw/memory-core`).",
    "",
    "- `createMemory({ config })` takes these keys as a camelCase object (`searchMode`, `deferEmbedding`,",
    "  …; `[memory]` keys may also sit at the top level) or the path of a TOML file; with neither it reads",
    "  `{workspace}/claw-memory.toml` when present. The CLI and the server read the same file.",
    "- Unknown keys are reported as a warning; a wrong type or a value out of range is `INVALID_INPUT`",
    "  naming the key (`memory.decay_floor: …`).",
    "- Only the apps read the environment (the libraries take everything as arguments;",
    "  `applyEnvironment(config, process.env)` from core does what the apps do): `CLAW_MEMORY_WORKSPACE`",
    "  (the workspace folder), the variables in the *environment* column, `CLAW_MEMORY_API_KEY` (one more",
    "  server token, with every namespace) and `NO_COLOR`.",
    "",
  ];
  for (const section of SECTIONS) {
    const schema = objectAt(json, section.path);
    lines.push(`## ${section.title}`, "");
    const sectionComment = comments.get(section.path.join("."));
    if (sectionComment) lines.push(sectionComment, "");
    lines.push("| key | type | default | range | environment | meaning |", "|---|---|---|---|---|---|");
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const path = [...section.path, name].join(".");
      if (SECTIONS.some((other) => other.path.join(".") === path)) continue; // a section of its own
      const comment = comments.get(path);
      if (!comment) missing.push(path);
      const key = snake(name);
      const env = ENVIRONMENT[`${section.toml}.${key}`] ?? "";
      lines.push(
        `| \`${key}\` | ${cell(typeOf(property, snake))} | ${cell(defaultOf(property))} | ${cell(rangeOf(property))} | ${env} | ${cell(meaningOf(comment ?? "", property, snake))} |`,
      );
    }
    lines.push("");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/** The object schema at `path` (through arrays' items and records' values). */
function objectAt(json, path) {
  let node = json;
  for (const segment of path) {
    node = node.properties[segment];
    if (node.type === "array") node = node.items;
    if (node.additionalProperties && typeof node.additionalProperties === "object")
      node = node.additionalProperties;
  }
  return node;
}

function typeOf(property, snake) {
  if (property.enum) return property.enum.map((value) => JSON.stringify(value)).join(" \\| ");
  if (property.anyOf) {
    const words = property.anyOf.flatMap((part) =>
      part.enum ? part.enum.map((v) => JSON.stringify(v)) : [],
    );
    return `${words.join(" \\| ")} or a table (see meaning)`;
  }
  if (property.type === "array") return `array of ${typeOf(property.items, snake)}s`;
  return property.type ?? "any";
}

function defaultOf(property) {
  return property.default === undefined ? "—" : JSON.stringify(property.default);
}

function rangeOf(property) {
  const parts = [];
  const { minimum, exclusiveMinimum } = property;
  const maximum = property.maximum >= Number.MAX_SAFE_INTEGER ? undefined : property.maximum;
  if (property.type === "integer" && exclusiveMinimum === 0 && minimum === undefined) return "≥ 1";
  if (minimum !== undefined && maximum !== undefined) parts.push(`${minimum} – ${maximum}`);
  else if (minimum !== undefined) parts.push(`≥ ${minimum}`);
  else if (maximum !== undefined) parts.push(`≤ ${maximum}`);
  if (exclusiveMinimum !== undefined) parts.push(`> ${exclusiveMinimum}`);
  if (property.pattern === "^[0-9a-fA-F]{64}$") parts.push("64 hex digits");
  else if (property.pattern === "^[A-Za-z_][A-Za-z0-9_]*$") parts.push("a variable name");
  if (property.minLength === 1) parts.push("not empty");
  if (property.minItems !== undefined) parts.push(`at least ${property.minItems}`);
  return parts.join(", ");
}

/** The comment, plus the table forms of a key that takes one (`{ kind = "rrf", k = 60 }`). */
function meaningOf(comment, property, snake) {
  const forms = (property.anyOf ?? []).flatMap((part) => part.oneOf ?? []);
  if (forms.length === 0) return comment;
  const tables = forms.map((form) => {
    const fields = Object.entries(form.properties).map(([name, field]) =>
      field.const !== undefined
        ? `${snake(name)} = ${JSON.stringify(field.const)}`
        : `${snake(name)} = ${JSON.stringify(field.default)}`,
    );
    return `\`{ ${fields.join(", ")} }\``;
  });
  return `${comment} Table forms: ${tables.join(", ")}.`;
}

function cell(text) {
  return String(text)
    .replace(/\|(?<!\\\|)/g, "\\|")
    .replace(/\n/g, " ");
}

await main();
