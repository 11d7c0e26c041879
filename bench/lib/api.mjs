/** A test card every bench tokenizes (far-future expiry: test clocks may move years ahead). */
export const benchCard = { card_owner_name: 'Bench Owner', card_number: '4111111111111111', card_exp_month: 12, card_exp_year: 2099, csc: '123' };

export const basic = (key) => 'Basic ' + Buffer.from(`${key}:`).toString('base64');

/** One API request with a key (HTTP Basic), JSON in and out: `{status, body}`. */
export async function call(url, method, key, body) {
  const res = await fetch(url, {
    method,
    headers: { authorization: basic(key), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}
