// Tax identification numbers of the seller (and, later, the buyer): the types accepted and
// the format each must have. EU VAT numbers are checked against the format of the member
// state their prefix names (EL is Greece, XI Northern Ireland), as VIES publishes them; no
// check digit is computed, so a well-formed number can still be unregistered.

import { TAX_ID_TYPES } from '@paygrid/contracts';

export { TAX_ID_TYPES };
export type TaxIdType = (typeof TAX_ID_TYPES)[number];

export interface TaxId {
  type: TaxIdType;
  value: string;
}

/** The national part of an EU VAT number, by its two-letter prefix. */
export const EU_VAT_FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-WY][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

const OTHER_FORMATS: Readonly<Record<Exclude<TaxIdType, 'eu_vat'>, { format: RegExp; example: string }>> = {
  gb_vat: { format: /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/, example: 'GB123456789' },
  ch_vat: { format: /^CHE\d{9}(MWST|TVA|IVA)$/, example: 'CHE-123.456.789 MWST' },
  no_vat: { format: /^\d{9}MVA$/, example: '123456789MVA' },
  us_ein: { format: /^\d{2}-?\d{7}$/, example: '12-3456789' },
  au_abn: { format: /^\d{11}$/, example: '12345678912' },
};

/** Upper case without the spaces, dots and hyphens people write numbers with (an EIN keeps its hyphen). */
export function normalizeTaxId(type: TaxIdType, value: string): string {
  const upper = value.trim().toUpperCase();
  if (type === 'us_ein') return upper.replace(/\s/g, '');
  return upper.replace(/[\s.-]/g, '');
}

/**
 * The normalised value, or why it is not a valid number of its type (a sentence for the
 * error message). Greece's ISO code GR is told to use EL, as VIES does.
 */
export function checkTaxId(type: TaxIdType, raw: string): { value: string } | { problem: string } {
  const value = normalizeTaxId(type, raw);
  if (type === 'eu_vat') {
    const prefix = value.slice(0, 2);
    if (prefix === 'GR') return { problem: 'a Greek VAT number starts with EL, not GR' };
    const format = EU_VAT_FORMATS[prefix];
    if (!format) return { problem: `an EU VAT number starts with a member state's prefix (not ${prefix})` };
    if (!format.test(value.slice(2)))
      return { problem: `${value} is not in the format of a ${prefix} VAT number` };
    return { value };
  }
  const { format, example } = OTHER_FORMATS[type];
  if (!format.test(value)) return { problem: `a ${type} number looks like ${example}` };
  return { value };
}
