// The merchant's settings for the key's environment: verification, receipt defaults, allowed origins.
import { Bool, NullableStr as NStr, Str, Type, loose } from './common.js';

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

const flag = (description: string) => Type.Union([Bool(), Str()], { description: `${description} true/false (also "1"/"0").` });
export const SettingsBody = loose({
  cvv_check: flag('Require a matching CVV.'),
  zip_check: flag('Require a matching zip.'),
  default_receipts: flag('Receipts by default.'),
  default_receipt_template_id: Type.Union([Str(), Type.Null()], { description: 'A template of this environment; empty or null clears it.' }),
  allowed_origins: Type.Union([Type.Array(Str(), { maxItems: 20 }), Str(), Type.Null()], {
    description: 'Replaces the list: up to 20 origins such as https://shop.example (no path; http only for localhost in live mode), as an array or one string separated by commas; [] or null clears it.',
  }),
}, { examples: [{ cvv_check: true }] });
