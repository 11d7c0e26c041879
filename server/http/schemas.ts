// JSON-schema atoms the route files build their request and response schemas from.

export const string = { type: 'string' };
export const nullableString = { type: ['string', 'null'] };
export const int = { type: 'integer' };
export const nullableInt = { type: ['integer', 'null'] };
export const bool = { type: 'boolean' };
/** A Date serialised as ISO 8601 with milliseconds and Z (spec 2.1). */
export const timestamp = { type: 'string', format: 'date-time' };
export const nullableTime = { type: ['string', 'null'], format: 'date-time' };
/** Bodies the domain checks itself, so the answer carries the spec's own error codes. */
export const anyBody = { type: 'object', additionalProperties: true };
