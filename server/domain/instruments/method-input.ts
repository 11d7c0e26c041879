// POST /customers/:customer_id/methods[/:method_id]'s body, read once at the edge (spec 4.6): the
// route turns what its table read (MethodCreateFields, MethodUpdateFields: every value text as
// sent, empty none; a zip no address has, over 255 characters, REQ01; an object or array REQ01)
// into a MethodInput before it opens its transaction; createMethod and updateMethod work on that
// typed input only. Pure. A card or bank account sent as fields is checked here but its refusal
// carried (payment-fields.ts): what the values mean is answered
// inside the transaction, in the order it always was: the customer (17001), the method (82002),
// the method type (82001), then the token or the card or bank fields, whose holder is the stored customer.
import { type Edge, type PaymentInput, readPayment } from './payment-fields.js';
import type { MethodCreate, MethodUpdate } from '../../schemas/methods.js';

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

const str = (v: string | number | null | undefined) => (v === undefined || v === null || v === '' ? null : String(v));

/** The payment, security code, zip and method_type (create: MethodCreateFields; update: MethodUpdateFields). */
export function readMethodInput(input: MethodCreate, mode: 'create', edge: Edge): MethodInput;
export function readMethodInput(input: MethodUpdate, mode: 'update', edge: Edge): MethodInput;
export function readMethodInput(input: MethodCreate | MethodUpdate, mode: 'create' | 'update', edge: Edge): MethodInput {
  const out: MethodInput = { payment: readPayment(input, input.token, edge), csc: str(input.cvv ?? input.csc), zip: input.zip };
  if (mode === 'create') out.method_type = 'method_type' in input ? input.method_type : null;
  return out;
}
