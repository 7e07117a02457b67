import { SecretBox } from './secret-box';

const ring = (...entries: string[]) => {
  const parsed = SecretBox.parse(entries.join(','));
  if (!parsed.box) throw new Error(parsed.problems.join('; '));
  return parsed.box;
};

describe('SecretBox', () => {
  const k1 = SecretBox.generateEntry('k1');
  const k2 = SecretBox.generateEntry('k2');

  it('seals with the first key, names it, and opens only with the same row', () => {
    const box = ring(k1);
    const sealed = box.seal('sk_live_secret', 'processor_connection:pcon_a');
    expect(sealed.key_id).toBe('k1');
    expect(sealed.ciphertext).not.toContain('sk_live');
    expect(Buffer.from(sealed.ciphertext, 'base64').toString('latin1')).not.toContain('sk_live');
    expect(box.open(sealed, 'processor_connection:pcon_a')).toBe('sk_live_secret');
    // Moved onto another row, or altered by one byte: refused.
    expect(() => box.open(sealed, 'processor_connection:pcon_b')).toThrow();
    const raw = Buffer.from(sealed.ciphertext, 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() =>
      box.open({ ...sealed, ciphertext: raw.toString('base64') }, 'processor_connection:pcon_a'),
    ).toThrow();
  });

  it('rotates: a new first key seals, the old one still opens, and a dropped key is refused', () => {
    const old = ring(k1).seal('whsec_x', 'a');
    const rotated = ring(k2, k1);
    expect(rotated.currentKeyId).toBe('k2');
    expect(rotated.open(old, 'a')).toBe('whsec_x');
    expect(rotated.seal('whsec_x', 'a').key_id).toBe('k2');
    expect(() => ring(k2).open(old, 'a')).toThrow(/key k1, which is not configured/);
  });

  it('lists every problem of a bad key ring', () => {
    expect(SecretBox.parse('').problems).toEqual(['PROCESSOR_SECRETS_KEYS is empty']);
    expect(SecretBox.parse('k1:c2hvcnQ=,nocolon,k1:' + k1.split(':')[1]).problems).toEqual([
      'PROCESSOR_SECRETS_KEYS: key k1 must be 32 bytes (base64)',
      'PROCESSOR_SECRETS_KEYS: each entry is <key id>:<base64 of 32 bytes>',
    ]);
    expect(SecretBox.parse(`${k1},${k1}`).problems).toEqual([
      'PROCESSOR_SECRETS_KEYS: key id k1 is listed twice',
    ]);
  });
});
