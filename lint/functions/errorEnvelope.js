// Spectral function: an error response (4xx/5xx) has a JSON body whose schema is the document's
// error envelope: a $ref to the envelope component itself, to a component that extends it with
// `allOf` (e.g. ForbiddenEnvelope = ErrorEnvelope + `data.permission`), or to a component that
// spells the envelope out (every required property of the envelope, required too, with the same
// type, and `code` values among the envelope's) -- SDK generators cannot merge an `allOf` whose
// `data` narrows the envelope's nullable `data`, so some session envelopes are written out.
//
// Given: a response object in the UNRESOLVED document (rule option `resolved: false`), so `$ref`
// names stay visible. functionOptions: { envelope: "<component schema name>" }.

const PREFIX = "#/components/schemas/";

function pointer(doc, ref) {
  if (typeof ref !== "string" || !ref.startsWith("#/")) return undefined;
  let node = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

function deref(doc, schema) {
  for (let i = 0; schema && typeof schema.$ref === "string" && i < 20; i += 1) schema = pointer(doc, schema.$ref);
  return schema;
}

// True when `schema` spells out the envelope: each property the envelope requires is required
// here too, with the same `type`, and `code` (when both list values) only takes envelope codes.
function spellsOut(doc, schema, envelopeSchema) {
  if (!schema || schema.type !== "object" || !envelopeSchema || !Array.isArray(envelopeSchema.required)) return false;
  const required = new Set(schema.required || []);
  const props = schema.properties || {};
  const envelopeProps = envelopeSchema.properties || {};
  return envelopeSchema.required.every((name) => {
    const own = deref(doc, props[name]);
    const theirs = deref(doc, envelopeProps[name]) || {};
    if (!required.has(name) || !own) return false;
    if (theirs.type !== undefined && own.type !== theirs.type) return false;
    if (Array.isArray(theirs.enum) && Array.isArray(own.enum)) return own.enum.every((v) => theirs.enum.includes(v));
    return !(Array.isArray(theirs.enum) && !Array.isArray(own.enum));
  });
}

// True when the schema named by `ref` is the envelope, (transitively) an allOf extension of it,
// or a component that spells it out.
function extendsEnvelope(doc, ref, envelope, seen) {
  if (ref === PREFIX + envelope) return true;
  if (seen.has(ref) || !String(ref).startsWith(PREFIX)) return false;
  seen.add(ref);
  const schema = pointer(doc, ref);
  if (!schema) return false;
  if (Array.isArray(schema.allOf)) {
    return schema.allOf.some((part) => part && part.$ref && extendsEnvelope(doc, part.$ref, envelope, seen));
  }
  return spellsOut(doc, schema, pointer(doc, PREFIX + envelope));
}

export default function errorEnvelope(response, options, context) {
  const doc = context.document.data;
  const envelope = options.envelope;
  let target = response;
  let path = [...context.path];
  if (target && typeof target.$ref === "string") {
    // A shared response: report at the component once, not at every operation that uses it.
    target = pointer(doc, target.$ref);
    if (!target) return []; // an unresolvable $ref is reported by the built-in rules
    path = response.$ref.slice(2).split("/").map((raw) => decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~"));
  }
  const content = (target && target.content) || {};
  const json = Object.keys(content).filter((type) => /^application\/(?:[\w.+-]+\+)?json\b/.test(type));
  if (json.length === 0) {
    return [{ message: `Give this error response an application/json body whose schema is ${envelope}.`, path }];
  }
  const results = [];
  for (const type of json) {
    const schema = content[type].schema || {};
    if (!schema.$ref || !extendsEnvelope(doc, schema.$ref, envelope, new Set())) {
      const found = schema.$ref ? `\`${schema.$ref}\`` : "an inline schema";
      results.push({
        message: `The ${type} body of an error response must be $ref ${PREFIX}${envelope}, a schema that extends it with allOf or one that spells out its required properties (same types, its codes), not ${found}.`,
        path: [...path, "content", type, "schema"],
      });
    }
  }
  return results;
}
