// The merchant's settings for the key's environment: verification and receipt defaults.
import { Bool, NullableStr as NStr, Str, Type, loose } from './common.js';

export const SettingsSchema = Type.Object({
  class: Str({ examples: ['settings'] }),
  env: Str({ enum: ['test', 'live'], examples: ['test'] }),
  cvv_check: Bool({ description: 'Refuse cards without a matching CVV (spec 4.1).', examples: [true] }),
  zip_check: Bool({ description: 'Refuse cards without a matching zip (spec 4.1).', examples: [false] }),
  default_receipts: Bool({ description: 'Email a receipt for every charge unless it says otherwise.', examples: [false] }),
  default_receipt_template_id: NStr({ examples: [null] }),
});

const flag = (description: string) => Type.Union([Bool(), Str()], { description: `${description} true/false (also "1"/"0").` });
export const SettingsBody = loose({
  cvv_check: flag('Require a matching CVV.'),
  zip_check: flag('Require a matching zip.'),
  default_receipts: flag('Receipts by default.'),
  default_receipt_template_id: Type.Union([Str(), Type.Null()], { description: 'A template of this environment; empty or null clears it.' }),
}, { examples: [{ cvv_check: true }] });
