/**
 * Verify Tessera webhook deliveries in Node.js (node:crypto only), as tessera/webhooks/verify.py does in Python.
 *
 * Every delivery is an HTTP POST whose body is one JSON event (`{id, type, schemaVersion, occurredAt, data}`),
 * signed in the format its endpoint chose (`signatureFormat`):
 *
 * - `tessera` (the default): `X-Webhook-Timestamp` (Unix seconds), `X-Webhook-Signature` (`sha256=` and the
 *   lowercase hex HMAC-SHA-256 of `<timestamp>.<raw body>`, keyed with the UTF-8 bytes of the secret) and
 *   `X-Webhook-Delivery`. During a secret rotation the signature header carries one `sha256=<hex>` per active
 *   secret, **comma-separated**, newest first.
 * - `standard-webhooks` (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` and
 *   `webhook-signature` (`v1,` and the base64 HMAC-SHA-256 of `<id>.<timestamp>.<raw body>`; the key of a
 *   `whsec_<base64>` secret is its decoded part). During a rotation: one `v1,<base64>` per secret,
 *   **space-separated**.
 *
 * Verify over the raw body (a Buffer or Uint8Array, before parsing it), reject timestamps more than 300 s away
 * from now, compare in constant time, and deduplicate on the event `id`: delivery is at-least-once.
 *
 * ```ts
 * import { verifyEvent, WebhookVerificationError } from "@tessera/open-platform";
 * // in a handler that has the raw body (e.g. express.raw({ type: "application/json" })):
 * try {
 *   const event = verifyEvent(req.body, req.headers, [process.env.WEBHOOK_SECRET!]);
 *   processOnce(event.id, event);
 *   res.sendStatus(204);
 * } catch (e) {
 *   if (e instanceof WebhookVerificationError) res.sendStatus(401); else throw e;
 * }
 * ```
 */

import { createHmac, timingSafeEqual } from "node:crypto";

import type { components } from "./schema.js";

export const DEFAULT_TOLERANCE_SECONDS = 300;
export type SignatureFormat = "tessera" | "standard-webhooks";
export type WebhookEvent =
  | components["schemas"]["AssetsAssignmentChangedEvent"]
  | components["schemas"]["InventoryStockInCreatedEvent"]
  | components["schemas"]["WebhookEndpointDisabledEvent"]
  | components["schemas"]["CredentialRotationDueEvent"]
  | components["schemas"]["CredentialExpiryApproachingEvent"];

/** Header containers this module reads: `Headers`, Node's `IncomingHttpHeaders`, or a plain object. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export type VerificationFailure =
  | "missing_header"
  | "bad_timestamp"
  | "timestamp_out_of_tolerance"
  | "bad_signature_header"
  | "bad_message_id"
  | "signature_mismatch";

/** The delivery is not authentic or not fresh: answer 401 and do not process it (`reason` says why). */
export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: VerificationFailure,
    message: string,
  ) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

export interface VerifyOptions {
  toleranceSeconds?: number;
  /** Unix seconds; the clock by default (for tests). */
  now?: number;
  /** Accept this format only; by default the delivery's own. */
  signatureFormat?: SignatureFormat;
}

const SIGNATURE = /^sha256=([0-9a-f]{64})$/;
const TIMESTAMP = /^[0-9]{1,20}$/;
const STANDARD_ENTRY = /^([a-z0-9]+),(\S+)$/;
const STANDARD_V1 = /^[A-Za-z0-9+/]{43}=$/;
const STANDARD_ID = /^[\x21-\x2d\x2f-\x7e]{1,256}$/;
const MAX_SIGNATURES = 16;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value.join(",") : value;
  }
  return undefined;
}

function required(headers: HeaderSource, name: string): string {
  const value = header(headers, name);
  if (value === undefined || value.trim() === "") {
    throw new WebhookVerificationError("missing_header", `${name} header is missing`);
  }
  return value;
}

function keyOf(secret: string | Uint8Array): Buffer {
  const key = typeof secret === "string" ? Buffer.from(secret, "utf8") : Buffer.from(secret);
  if (key.length === 0) throw new RangeError("a webhook secret must not be empty");
  return key;
}

/** The Standard Webhooks key of a secret: the decoded part of `whsec_<base64>`, else its UTF-8 bytes. */
export function standardKey(secret: string | Uint8Array): Buffer {
  if (typeof secret === "string" && secret.startsWith("whsec_")) {
    const encoded = secret.slice("whsec_".length);
    if (/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) && encoded.length % 4 === 0) {
      const decoded = Buffer.from(encoded, "base64");
      if (decoded.length > 0) return decoded;
    }
  }
  return keyOf(secret);
}

function freshTimestamp(value: string, name: string, tolerance: number, now: number | undefined): string {
  const text = value.trim();
  if (!TIMESTAMP.test(text)) throw new WebhookVerificationError("bad_timestamp", `${name} must be Unix time in seconds`);
  const current = now ?? Date.now() / 1000;
  if (Math.abs(current - Number(text)) > tolerance) {
    throw new WebhookVerificationError("timestamp_out_of_tolerance", `${name} is more than ${tolerance} s from now`);
  }
  return text;
}

function match(provided: string[], expected: string[]): void {
  // Every pair is compared (no early exit), each in constant time.
  let matched = false;
  for (const candidate of provided) {
    for (const digest of expected) {
      const a = Buffer.from(candidate);
      const b = Buffer.from(digest);
      if (a.length === b.length && timingSafeEqual(a, b)) matched = true;
    }
  }
  if (!matched) throw new WebhookVerificationError("signature_mismatch", "no signature matches any of the secrets");
}

function hmac(key: Buffer, ...parts: Buffer[]): Buffer {
  const mac = createHmac("sha256", key);
  parts.forEach((part, index) => {
    if (index > 0) mac.update(".");
    mac.update(part);
  });
  return mac.digest();
}

/** Return if the delivery is authentic and fresh; throw `WebhookVerificationError` otherwise. */
export function verify(
  rawBody: Uint8Array,
  headers: HeaderSource,
  secrets: string | Uint8Array | Array<string | Uint8Array>,
  options: VerifyOptions = {},
): void {
  if (typeof rawBody === "string" || !(rawBody instanceof Uint8Array)) {
    throw new TypeError("rawBody must be the raw request body (Buffer or Uint8Array), not a decoded or parsed value");
  }
  const body = Buffer.from(rawBody);
  const list = Array.isArray(secrets) ? secrets : [secrets];
  if (list.length === 0) throw new RangeError("at least one webhook secret is required");
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const standard =
    options.signatureFormat === undefined
      ? header(headers, "webhook-signature") !== undefined && header(headers, "X-Webhook-Signature") === undefined
      : options.signatureFormat === "standard-webhooks";

  if (standard) {
    const id = required(headers, "webhook-id").trim();
    const timestampValue = required(headers, "webhook-timestamp");
    const signatureValue = required(headers, "webhook-signature");
    if (!STANDARD_ID.test(id)) {
      throw new WebhookVerificationError("bad_message_id", "webhook-id must be printable ASCII without a full stop");
    }
    const timestamp = freshTimestamp(timestampValue, "webhook-timestamp", tolerance, options.now);
    const parts = signatureValue.split(/\s+/).filter(Boolean);
    if (parts.length > MAX_SIGNATURES) {
      throw new WebhookVerificationError("bad_signature_header", "webhook-signature carries too many signatures");
    }
    const provided: string[] = [];
    for (const part of parts) {
      const entry = STANDARD_ENTRY.exec(part);
      if (entry === null || (entry[1] === "v1" && !STANDARD_V1.test(entry[2] ?? ""))) {
        throw new WebhookVerificationError("bad_signature_header", "webhook-signature must be space-separated v1,<base64>");
      }
      if (entry[1] === "v1") provided.push(entry[2] ?? "");
    }
    if (provided.length === 0) {
      throw new WebhookVerificationError("bad_signature_header", "webhook-signature has no v1 signature");
    }
    const expected = list.map((secret) =>
      hmac(standardKey(secret), Buffer.from(id), Buffer.from(timestamp), body).toString("base64"),
    );
    match(provided, expected);
    return;
  }

  const timestampValue = required(headers, "X-Webhook-Timestamp");
  const signatureValue = required(headers, "X-Webhook-Signature");
  required(headers, "X-Webhook-Delivery");
  const timestamp = freshTimestamp(timestampValue, "X-Webhook-Timestamp", tolerance, options.now);
  const parts = signatureValue.split(",").map((part) => part.trim());
  if (parts.length > MAX_SIGNATURES) {
    throw new WebhookVerificationError("bad_signature_header", "X-Webhook-Signature carries too many signatures");
  }
  const provided = parts.map((part) => {
    const found = SIGNATURE.exec(part);
    if (found === null) {
      throw new WebhookVerificationError(
        "bad_signature_header",
        "X-Webhook-Signature must be comma-separated sha256=<64 lowercase hex digits>",
      );
    }
    return found[1] ?? "";
  });
  const expected = list.map((secret) => hmac(keyOf(secret), Buffer.from(timestamp), body).toString("hex"));
  match(provided, expected);
}

/** `verify`, then parse: the event. A body that verifies but is not a JSON object throws a `SyntaxError`. */
export function verifyEvent(
  rawBody: Uint8Array,
  headers: HeaderSource,
  secrets: string | Uint8Array | Array<string | Uint8Array>,
  options: VerifyOptions = {},
): WebhookEvent {
  verify(rawBody, headers, secrets, options);
  const event: unknown = JSON.parse(Buffer.from(rawBody).toString("utf8"));
  if (typeof event !== "object" || event === null || Array.isArray(event)) {
    throw new SyntaxError("the delivery body is not a JSON object");
  }
  return event as WebhookEvent;
}

/** The `X-Webhook-Signature` value (`sha256=<hex>`) for one secret: for signed test fixtures. */
export function sign(rawBody: Uint8Array, secret: string | Uint8Array, timestamp: number): string {
  return `sha256=${hmac(keyOf(secret), Buffer.from(String(timestamp)), Buffer.from(rawBody)).toString("hex")}`;
}
