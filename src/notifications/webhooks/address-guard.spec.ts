import {
  BlockedAddressError,
  checkUrlShape,
  isPublicAddress,
} from './address-guard.js';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::2',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '[::1]',
    '::127.0.0.1',
    '::7f00:1',
    '::a9fe:a9fe',
    '::808:808',
    '::8.8.8.8',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
  ])('accepts the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('checkUrlShape', () => {
  it('accepts absolute http and https URLs', () => {
    const check = checkUrlShape('https://hooks.example.com/x?y=1');
    expect(check.ok && check.url.hostname).toBe('hooks.example.com');
  });

  it.each([
    ['ftp://example.com/', 'must use http or https'],
    ['file:///etc/passwd', 'must use http or https'],
    ['/relative', 'must be an absolute http or https URL'],
    ['https://user:pw@example.com/', 'must not carry a user name or password'],
    [`https://example.com/${'a'.repeat(2050)}`, 'must be at most 2048'],
  ])('refuses %s', (raw, problem) => {
    const check = checkUrlShape(raw);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.problem).toContain(problem);
  });

  it('reads numeric IPv4 spellings as the address they mean', () => {
    const check = checkUrlShape('http://2130706433/');
    expect(check.ok && check.url.hostname).toBe('127.0.0.1');
  });
});

describe('BlockedAddressError', () => {
  it('names the host, never the address a name resolved to', () => {
    const byName = new BlockedAddressError('vm', '127.0.0.1');
    expect(byName.message).toBe(
      'the host vm is not public: it resolves to a private, loopback or link-local address, and such targets are refused (set WEBHOOK_ALLOW_PRIVATE=true to allow them on a LAN installation)',
    );
    expect(byName.message).not.toContain('127.0.0.1');
    expect(byName.address).toBe('127.0.0.1');
    expect(new BlockedAddressError('10.0.0.1', '10.0.0.1').message).toBe(
      '10.0.0.1 is not a public address (private, loopback and link-local targets are refused; set WEBHOOK_ALLOW_PRIVATE=true to allow them on a LAN installation)',
    );
  });
});
