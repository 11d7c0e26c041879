// POST /customers/:customer_id/methods[/:method_id]'s body, read once at the edge (spec 4.6): the
// route turns a body into a MethodInput before it opens its transaction; createMethod and
// updateMethod work on that typed input only. Pure. Reading refuses nothing but a zip no address
// has (over 255 characters, REQ01): every value is taken as text (empty is none), as these routes
// always have, and a card or bank account sent as fields is checked here but its refusal carried (payment-fields.ts): what the values mean is answered
// inside the transaction, in the order it always was: the customer (17001), the method (82002),
// the method type (82001), then the token or the card or bank fields, whose holder is the stored customer.
import { tooLong } from '../../errors.js';
import { type Edge, type PaymentInput, readPayment } from './payment-fields.js';
import { MAX_TEXT } from '../../schemas/tokens.js';

type Body = Record<string, unknown>;

export interface MethodInput {
  /** A token, or card or bank fields (checked), or why they are refused. */
  payment: PaymentInput;
  /** cvv, else csc: verified now, then forgotten. */
  csc: string | null;
  /** Zip for address verification, given with the card: wins over the token's billing zip. */
  zip: string | null;
  /** Create only: credit_card or bank_account (checked by createMethod), or none for the payment's type. */
  method_type?: string | null;
}

const str = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v));

/** The payment, security code, zip and method_type (create only). */
export function readMethodInput(body: Body | undefined | null, mode: 'create' | 'update', edge: Edge): MethodInput {
  const b = body ?? {};
  const zip = str(b.zip);
  if (zip !== null && zip.length > MAX_TEXT) throw tooLong('zip', MAX_TEXT); // stored on the method, as a token's
  const input: MethodInput = { payment: readPayment(b, str(b.token), edge), csc: str(b.cvv ?? b.csc), zip };
  if (mode === 'create') input.method_type = str(b.method_type);
  return input;
}
