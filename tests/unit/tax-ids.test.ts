// Tax ids of the business profile (apps/invoicing/src/account/tax-ids.ts): each EU member
// state's VAT format by its prefix, the other types, normalisation; and the logo's type told
// by its bytes.

import fc from 'fast-check';
import { sniffImageType } from '../../apps/invoicing/src/account/account-profile';
import { checkTaxId, EU_VAT_FORMATS, normalizeTaxId } from '../../apps/invoicing/src/account/tax-ids';

describe('EU VAT numbers', () => {
  it('accepts real-shaped numbers of each member state, as people write them', () => {
    const valid = [
      'ATU13585627',
      'BE0411905847',
      'DE 136 695 976',
      'DK13585628',
      'EL094259216',
      'ES A28015865',
      'FI20774740',
      'FR40303265045',
      'IE6388047V',
      'IE1234567FA',
      'IT00743110157',
      'NL004495445B01',
      'PL 526-025-02-74',
      'SE556703748501',
      'XI123456789',
    ];
    for (const value of valid)
      expect({ value, result: checkTaxId('eu_vat', value) }).toEqual({
        value,
        result: { value: value.toUpperCase().replace(/[\s.-]/g, '') },
      });
  });

  it('refuses a wrong length, an unknown prefix and GR (Greece is EL)', () => {
    expect(checkTaxId('eu_vat', 'DE12345678')).toEqual({
      problem: 'DE12345678 is not in the format of a DE VAT number',
    });
    expect(checkTaxId('eu_vat', 'NL004495445A01')).toHaveProperty('problem');
    expect(checkTaxId('eu_vat', 'SE556703748599')).toHaveProperty('problem');
    expect(checkTaxId('eu_vat', 'US123456789')).toEqual({
      problem: "an EU VAT number starts with a member state's prefix (not US)",
    });
    expect(checkTaxId('eu_vat', 'GR094259216')).toEqual({
      problem: 'a Greek VAT number starts with EL, not GR',
    });
    expect(checkTaxId('eu_vat', 'GB123456789')).toHaveProperty('problem');
  });

  it("accepts any number that has its state's format and refuses it with digits appended", () => {
    for (const [prefix, format] of Object.entries(EU_VAT_FORMATS)) {
      fc.assert(
        fc.property(fc.stringMatching(format), (national) => {
          expect(checkTaxId('eu_vat', `${prefix}${national}`)).toEqual({ value: `${prefix}${national}` });
          // Every format is anchored (Ireland's and Lithuania's alternatives included) and no
          // national part is longer than 12 characters: 13 more digits never pass.
          const longer = `${prefix}${national}${'9'.repeat(13)}`;
          expect(checkTaxId('eu_vat', longer)).toHaveProperty('problem');
        }),
        { numRuns: 50 },
      );
    }
  });
});

describe('other tax ids', () => {
  it('checks each type against its own format', () => {
    expect(checkTaxId('gb_vat', 'GB 123 4567 89')).toEqual({ value: 'GB123456789' });
    expect(checkTaxId('gb_vat', 'DE123456789')).toEqual({
      problem: 'a gb_vat number looks like GB123456789',
    });
    expect(checkTaxId('ch_vat', 'CHE-123.456.789 MWST')).toEqual({ value: 'CHE123456789MWST' });
    expect(checkTaxId('no_vat', '923609016MVA')).toEqual({ value: '923609016MVA' });
    expect(checkTaxId('us_ein', '12-3456789')).toEqual({ value: '12-3456789' });
    expect(checkTaxId('au_abn', '51 824 753 556')).toEqual({ value: '51824753556' });
    expect(checkTaxId('au_abn', '5182475355')).toHaveProperty('problem');
  });

  it('normalises idempotently', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('eu_vat', 'gb_vat', 'ch_vat', 'no_vat', 'us_ein', 'au_abn' as const),
        fc.string(),
        (type, raw) => {
          const once = normalizeTaxId(type, raw);
          expect(normalizeTaxId(type, once)).toBe(once);
        },
      ),
    );
  });
});

describe('logo type by its bytes', () => {
  it('knows PNG and JPEG signatures and nothing else', () => {
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(
      'image/png',
    );
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e]))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });
});
