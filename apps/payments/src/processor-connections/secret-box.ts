// Processor credentials at rest: AES-256-GCM under a key ring from the environment
// (PROCESSOR_SECRETS_KEYS = "kid1:base64key,kid2:base64key", the first one current). Each
// sealed value keeps the id of the key that sealed it, so keys rotate without a flag day:
// add the new key first, restart, re-encrypt (POST /admin/v1/processor-connections/reencrypt),
// then drop the old key. The additional authenticated data binds a ciphertext to its row, so
// a sealed secret copied onto another connection does not open.

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface Sealed {
  key_id: string;
  /** base64 of iv || tag || ciphertext. */
  ciphertext: string;
}

export class SecretBox {
  private constructor(
    private readonly keys: ReadonlyMap<string, Buffer>,
    /** The key new values are sealed with (the first of the ring). */
    readonly currentKeyId: string,
  ) {}

  /**
   * Parses "kid:base64key,..." (each key 32 bytes). Returns the problems instead of throwing,
   * so the configuration reader can list every problem at once (docs/style.md rule 6).
   */
  static parse(value: string): { box?: SecretBox; problems: string[] } {
    const problems: string[] = [];
    const keys = new Map<string, Buffer>();
    for (const entry of value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const at = entry.indexOf(':');
      const id = at > 0 ? entry.slice(0, at) : '';
      if (!KEY_ID.test(id)) {
        problems.push('PROCESSOR_SECRETS_KEYS: each entry is <key id>:<base64 of 32 bytes>');
        continue;
      }
      const key = Buffer.from(entry.slice(at + 1), 'base64');
      if (key.length !== 32) problems.push(`PROCESSOR_SECRETS_KEYS: key ${id} must be 32 bytes (base64)`);
      else if (keys.has(id)) problems.push(`PROCESSOR_SECRETS_KEYS: key id ${id} is listed twice`);
      else keys.set(id, key);
    }
    const [current] = keys.keys();
    if (!current || problems.length)
      return { problems: problems.length ? problems : ['PROCESSOR_SECRETS_KEYS is empty'] };
    return { box: new SecretBox(keys, current), problems };
  }

  /** A fresh key ring entry, "kid:base64key" (the embedded default writes one into DATA_DIR). */
  static generateEntry(keyId: string): string {
    return `${keyId}:${randomBytes(32).toString('base64')}`;
  }

  seal(plaintext: string, aad: string): Sealed {
    const key = this.keys.get(this.currentKeyId) as Buffer;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      key_id: this.currentKeyId,
      ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64'),
    };
  }

  /** Throws when the key is no longer in the ring or the value was altered or moved. */
  open(sealed: Sealed, aad: string): string {
    const key = this.keys.get(sealed.key_id);
    if (!key) throw new Error(`processor secret sealed with key ${sealed.key_id}, which is not configured`);
    const raw = Buffer.from(sealed.ciphertext, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  }
}
