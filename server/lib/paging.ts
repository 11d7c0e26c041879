/** Rows a list answers when no `limit` is sent, and the most one page may ask for. */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
