// Spectral function: a media type object (request or response body) carries an example: `example`
// or `examples` on the media type, or `example` on its schema (after $ref resolution, so a
// component schema's own `example` counts). Given: media type objects of the RESOLVED document.

export default function hasExample(media) {
  if (media === null || typeof media !== "object") return [];
  if (media.example !== undefined || (media.examples && Object.keys(media.examples).length > 0)) return [];
  if (media.schema && typeof media.schema === "object" && media.schema.example !== undefined) return [];
  return [{ message: "no `example`/`examples` on the media type and no `example` on its schema" }];
}
