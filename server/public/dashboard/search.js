// @ts-check
export function startSearch() {}
