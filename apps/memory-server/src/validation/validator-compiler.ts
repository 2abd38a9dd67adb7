// Request validation with two Ajv instances: bodies are JSON and must carry the types their schema
// says (`content: 5` is refused, not stored as "5"); path and query strings are text by nature,
// so numbers, booleans and arrays are read out of them (`?limit=5`, `?category=a&category=b`).

import { Ajv, type Options } from "ajv";
import formats from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";

const COMMON: Options = {
  // Unknown fields are refused (a typo must not silently store into "default"), not dropped.
  removeAdditional: false,
  useDefaults: true,
  // With allErrors, a crafted body could make validation slow; the first error is enough.
  allErrors: false,
};

type FormatsPlugin = (ajv: Ajv) => Ajv;

function withFormats(ajv: Ajv): Ajv {
  // ajv-formats is CommonJS: its plugin is the module itself or its `default`.
  const plugin = ((formats as unknown as { default?: FormatsPlugin }).default ?? formats) as FormatsPlugin;
  return plugin(ajv);
}

export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const body = withFormats(new Ajv({ ...COMMON, coerceTypes: false }));
  const text = withFormats(new Ajv({ ...COMMON, coerceTypes: "array" }));
  return ({ schema, httpPart }) => (httpPart === "body" ? body : text).compile(schema as object);
}
