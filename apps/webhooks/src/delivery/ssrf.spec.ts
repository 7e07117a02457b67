import { checkTarget, nonPublicReason, TargetRefused } from './ssrf';

const hostOf = (url: string) => new URL(url).hostname;

describe('nonPublicReason', () => {
  it.each([
    '127.0.0.1',
    '[::1]',
    '169.254.169.254',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    // Issue 12 finding 8: each of these reached loopback or a private network.
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:7f00:1',
    '64:ff9b:1::7f00:1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    '2002:a00:1::1',
    '2002:c0a8:101::',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '::169.254.169.254',
  ])('refuses %s', (address) => {
    expect(nonPublicReason(address)).toBeDefined();
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2002:808:808::1',
    '64:ff9b::808:808',
    '2a00:1450:4001:80e::200e',
  ])('accepts %s', (address) => {
    expect(nonPublicReason(address)).toBeUndefined();
  });

  it('sees decimal, octal and hex IPv4 forms through the URL parser', () => {
    for (const url of [
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://0x7f.1/',
      'http://[::ffff:127.0.0.1]/',
      'https://[::127.0.0.1]/',
      'https://[::ffff:0:127.0.0.1]/',
      'https://[64:ff9b:1::7f00:1]/',
      'https://[2002:7f00:1::]/',
    ]) {
      expect({ url, refused: nonPublicReason(hostOf(url)) !== undefined }).toEqual({ url, refused: true });
    }
  });

  it('refuses non-addresses', () => {
    expect(nonPublicReason('example.com')).toBeDefined();
  });
});

describe('checkTarget (strict)', () => {
  const strict = { allowPrivate: false };
  it.each([
    'http://127.0.0.1/',
    'http://[::1]/',
    'http://169.254.169.254/',
    'http://10.0.0.1/',
    'https://127.0.0.1/',
    'https://[::ffff:127.0.0.1]/',
    'https://localhost/',
    'https://2130706433/',
    'https://100.64.0.1/',
  ])('refuses %s', async (url) => {
    await expect(checkTarget(new URL(url), strict)).rejects.toBeInstanceOf(TargetRefused);
  });

  it('accepts a public https address', async () => {
    await expect(checkTarget(new URL('https://93.184.215.14/hook'), strict)).resolves.toBeUndefined();
  });

  it('allows private targets when the operator does', async () => {
    await expect(
      checkTarget(new URL('http://127.0.0.1:9/'), { allowPrivate: true }),
    ).resolves.toBeUndefined();
  });
});
