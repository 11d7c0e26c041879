// The merchant's settings for the key's environment: verification, receipt defaults, allowed origins.
import { invalid } from '../errors.js';
import { Bool, NullableStr as NStr, Str, Type } from './common.js';
import { type Input, bool, custom, fields, sentText } from './fields.js';
import { later } from './fields.js';

export const SettingsSchema = Type.Object({
  class: Str({ examples: ['settings'] }),
  env: Str({ enum: ['test', 'live'], examples: ['test'] }),
  cvv_check: Bool({ description: 'Refuse cards without a matching CVV (spec 4.1).', examples: [true] }),
  zip_check: Bool({ description: 'Refuse cards without a matching zip (spec 4.1).', examples: [false] }),
  default_receipts: Bool({ description: 'Email a receipt for every charge unless it says otherwise.', examples: [false] }),
  default_receipt_template_id: NStr({ examples: [null] }),
  allowed_origins: Type.Array(Str(), {
    description: 'The origins of the checkout pages (scheme://host[:port]): the only pages that may frame the hosted card fields (in test mode, with none set, any page may), and whose card refusals are counted apart from those of any other page.',
    examples: [['https://shop.example']],
  }),
});

/** At most this many origins per environment: a CSP header lists them all. */
export const MAX_ORIGINS = 20;

/**
 * allowed_origins as a client sends it: a JSON array, or one string of origins separated by
 * commas or whitespace (a form field); null clears the list. Read here as a list; each origin is
 * checked by the domain (domain/merchant/settings.ts: it depends on the key's environment).
 */
const originList = custom('Replaces the list: up to 20 origins such as https://shop.example (no path; http only for localhost in live mode), as an array or one string separated by commas; [] or null clears it.',
  { anyOf: [{ type: 'array', items: { type: 'string' }, maxItems: MAX_ORIGINS }, { type: 'string' }, { type: 'null' }] },
  (v): unknown[] | undefined => {
    if (v === undefined) return undefined;
    if (v === null) return [];
    const items = typeof v === 'string' ? v.split(/[\s,]+/).filter(Boolean) : v;
    if (!Array.isArray(items)) throw invalid('allowed_origins', 'must be a list of origins (an array, or a string of origins separated by commas)');
    if (items.length > MAX_ORIGINS) throw invalid('allowed_origins', `must hold at most ${MAX_ORIGINS} origins`);
    return items as unknown[];
  });

const flag = (description: string) => bool(`${description} true/false (also "1"/"0").`);
/**
 * POST /settings, checked in this order: the three switches, the default template (10300 when it
 * names none of this environment: the domain looks it up), then allowed_origins (its refusal waits
 * for that lookup).
 */
export const SettingsFields = fields({
  cvv_check: flag('Require a matching CVV.'),
  zip_check: flag('Require a matching zip.'),
  default_receipts: flag('Receipts by default.'),
  default_receipt_template_id: sentText('A template of this environment; empty or null clears it.', { doc: { type: ['string', 'null'] } }),
  allowed_origins: later(originList),
}, { examples: [{ cvv_check: true }] });
export type SettingsInput = Input<typeof SettingsFields>;
