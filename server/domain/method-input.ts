// POST /customers/:customer_id/methods[/:method_id]'s body, read once at the edge (spec 4.6): the
// route turns a body into a MethodInput before it opens its transaction. Pure. Reading refuses
// nothing: every value is taken as text (empty is none), as these routes always have; what the
// values mean is checked inside the transaction, in the order they always were: the customer (17001),
// the method (82002), the method type (82001), then the token or the card or bank fields
// (payment-fields.ts), whose holder is the stored customer.
import type { MethodInput } from './methods.js';

type Body = Record<string, unknown>;

const str = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v));

/** The token, security code, zip, method_type (create only) and the body, read for card or bank fields. */
export function readMethodInput(body: Body | undefined | null, mode: 'create' | 'update'): MethodInput {
  const b = body ?? {};
  const input: MethodInput = { token: str(b.token), csc: str(b.cvv ?? b.csc), zip: str(b.zip), fields: b };
  if (mode === 'create') input.method_type = str(b.method_type);
  return input;
}
