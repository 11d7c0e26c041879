// The merchant's settings for the key's environment: verification, receipt defaults, allowed origins.
import { invalid } from '../errors.js';
import { Bool, Env, NullableStr as NStr, Str, Type, type Static, columnsOf, shown, shownKeys, shownOf, shownPicker } from './common.js';
import { type Input, bool, custom, fields, later, sentText } from './fields.js';

/**
 * merchant_settings (001_foundation.sql, 004_receipts.sql, 027_allowed_origins.sql): one row per
 * merchant environment, once it saved any; every setting is shown as stored, and its `default` is
 * the migration's (what a merchant that saved none has). A new setting is a migration, one line
 * here and, if POST /settings sets it as sent, a `stored` field of SettingsFields.
 */
export const SettingsRowSchema = Type.Object({
  merchant_id: Str(),
  env: Env(),
  cvv_check: shown(Bool({ description: 'Refuse cards without a matching CVV (spec 4.1).', examples: [true], default: false })),
  zip_check: shown(Bool({ description: 'Refuse cards without a matching zip (spec 4.1).', examples: [false], default: false })),
  /** Receipts for charges that do not say (send_receipt); see domain/documents/receipts.ts. */
  default_receipts: shown(Bool({ description: 'Email a receipt for every charge unless it says otherwise.', examples: [false], default: false })),
  default_receipt_template_id: shown(NStr({ examples: [null], default: null })),
  allowed_origins: shown(Type.Array(Str(), {
    description: 'The origins of the checkout pages (scheme://host[:port]): the only pages that may frame the hosted card fields (in test mode, with none set, any page may), and whose card refusals are counted apart from those of any other page.',
    examples: [['https://shop.example']],
    default: [],
  })),
});
export type SettingsRow = Static<typeof SettingsRowSchema>;
export const SETTINGS_COLUMNS = columnsOf(SettingsRowSchema);
/** The settings of one merchant environment: its row without the key. */
export type MerchantSettings = Omit<SettingsRow, 'merchant_id' | 'env'>;
/** The setting columns (every column but the key), in order. */
export const SETTING_KEYS = shownKeys(SettingsRowSchema);

/** What a merchant environment that saved no settings has: each column's default (a fresh copy). */
export function defaultSettings(): MerchantSettings {
  return Object.fromEntries(SETTING_KEYS.map((k) => [k, structuredClone(SettingsRowSchema.properties[k].default)])) as MerchantSettings;
}

export const SettingsSchema = Type.Object({
  class: Str({ examples: ['settings'] }),
  env: Str({ enum: ['test', 'live'], examples: ['test'] }),
  ...shownOf(SettingsRowSchema),
});
export type SettingsOut = Static<typeof SettingsSchema>;
const PICK = shownPicker(SettingsRowSchema);

/** The settings of the key's environment `env`, as stored (or their defaults). */
export function presentSettings(env: string, s: MerchantSettings): SettingsOut {
  return { class: 'settings', env, ...PICK(s) };
}

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

/** A switch, written as read into its column (`stored`). */
const flag = (description: string) => bool(`${description} true/false (also "1"/"0").`, { stored: true });
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
