/**
 * The Tessera Open Platform SDK for TypeScript: `paths` and `components` (generated from the published
 * document by openapi-typescript), a client over openapi-fetch, and the webhook verifier.
 */

export type { components, operations, paths } from "./schema.js";
export * from "./client.js";
export * from "./webhooks.js";
