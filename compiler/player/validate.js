// validate.js: check a bundle before playing it, so a bad file gives one clear message.
//
// A small JSON Schema (2020-12) checker for the keywords questc's bundle schema uses
// (type, enum, const, properties, required, additionalProperties, items, prefixItems,
// min/maxItems, min/maxLength, pattern, minimum, maximum, propertyNames, minProperties,
// uniqueItems, allOf, oneOf, if/then/else and local `$ref`s). It reports the first problem
// only, with the JSON path where it lies.

export const SUPPORTED_MAJOR = 1;

export class BundleError extends Error {}

/** Parse and check a bundle's text; returns the bundle or throws BundleError with one message. */
export function readBundle(text, schema) {
  let bundle;
  if (!text.trim()) throw new BundleError("The bundle file is empty.");
  try {
    bundle = JSON.parse(text);
  } catch (e) {
    throw new BundleError(`The bundle is not valid JSON (truncated or not a bundle): ${e.message}.`);
  }
  if (bundle === null || typeof bundle !== "object" || Array.isArray(bundle) || bundle.format !== "questc-bundle") {
    throw new BundleError('This file is not a questc bundle (its "format" is not "questc-bundle").');
  }
  const version = String(bundle.format_version || "");
  const major = Number(version.split(".")[0]);
  if (!/^\d+\.\d+\.\d+$/.test(version)) {
    throw new BundleError(`The bundle's format_version "${version}" is not a version number MAJOR.MINOR.PATCH.`);
  }
  if (major !== SUPPORTED_MAJOR) {
    throw new BundleError(`The bundle has format_version ${version}; this player reads format ${SUPPORTED_MAJOR}.x only. Rebuild the pack with a matching questc, or use a matching player.`);
  }
  if (schema) {
    const problem = check(schema, bundle, schema, "$");
    if (problem) throw new BundleError(`The bundle does not match the bundle schema: ${problem}.`);
  }
  return bundle;
}

const TYPES = {
  object: (v) => v !== null && typeof v === "object" && !Array.isArray(v),
  array: Array.isArray,
  string: (v) => typeof v === "string",
  integer: Number.isInteger,
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  null: (v) => v === null,
};

function resolve(root, ref) {
  if (!ref.startsWith("#")) throw new BundleError(`schema reference ${ref} is not local`);
  let node = root;
  for (const part of ref.slice(1).split("/").filter(Boolean)) {
    node = node[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    if (node === undefined) throw new BundleError(`schema reference ${ref} does not resolve`);
  }
  return node;
}

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

// the first problem of `value` against `schema` at `path`, or null
export function check(schema, value, root, path) {
  if (schema === true || schema === undefined) return null;
  if (schema === false) return `${path} is not allowed`;
  if (schema.$ref) {
    const p = check(resolve(root, schema.$ref), value, root, path);
    if (p) return p;
  }
  if (schema.type) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => TYPES[t](value))) return `${path} should be ${types.join(" or ")}, not ${JSON.stringify(value)?.slice(0, 40)}`;
  }
  if (schema.enum && !schema.enum.some((e) => same(e, value))) return `${path} is ${JSON.stringify(value)}, not one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}`;
  if ("const" in schema && !same(schema.const, value)) return `${path} should be ${JSON.stringify(schema.const)}`;
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return `${path} is ${value}, below ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${path} is ${value}, above ${schema.maximum}`;
  }
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) return `${path} is shorter than ${schema.minLength}`;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return `${path} is longer than ${schema.maxLength}`;
    if (schema.pattern && !new RegExp(schema.pattern, "u").test(value)) return `${path} ("${value}") does not match ${schema.pattern}`;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return `${path} has fewer than ${schema.minItems} items`;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return `${path} has more than ${schema.maxItems} items`;
    if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) return `${path} has repeated items`;
    const pre = schema.prefixItems || [];
    for (let i = 0; i < value.length; i++) {
      const sub = i < pre.length ? pre[i] : schema.items;
      const p = check(sub, value[i], root, `${path}[${i}]`);
      if (p) return p;
    }
  }
  if (TYPES.object(value)) {
    const keys = Object.keys(value);
    if (schema.minProperties !== undefined && keys.length < schema.minProperties) return `${path} has fewer than ${schema.minProperties} keys`;
    for (const r of schema.required || []) if (!(r in value)) return `${path} lacks "${r}"`;
    const props = schema.properties || {};
    for (const k of keys) {
      const sub = `${path}.${k}`;
      if (schema.propertyNames) {
        const p = check(schema.propertyNames, k, root, `key ${sub}`);
        if (p) return p;
      }
      if (k in props) {
        const p = check(props[k], value[k], root, sub);
        if (p) return p;
      } else if (schema.additionalProperties === false) {
        return `${path} has an unknown key "${k}"`;
      } else if (typeof schema.additionalProperties === "object") {
        const p = check(schema.additionalProperties, value[k], root, sub);
        if (p) return p;
      }
    }
  }
  for (const sub of schema.allOf || []) {
    const p = check(sub, value, root, path);
    if (p) return p;
  }
  if (schema.oneOf) {
    const ok = schema.oneOf.filter((s) => !check(s, value, root, path)).length;
    if (ok !== 1) return `${path} matches ${ok} of the alternatives, not exactly one`;
  }
  if (schema.if !== undefined) {
    const p = check(schema.if, value, root, path) ? check(schema.else, value, root, path) : check(schema.then, value, root, path);
    if (p) return p;
  }
  return null;
}
