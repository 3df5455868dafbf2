/**
 * The Tessera session REST API SDK for TypeScript: `paths` and `components` (generated from the session document
 * by openapi-typescript: typed page records, filter conditions and command payloads), and a client over
 * openapi-fetch with the login handled.
 */

export type { components, operations, paths } from "./schema.js";
export * from "./client.js";
