import { describe, expect, it } from 'vitest';
import { addressRange, hostRange } from './address-ranges.js';

describe('addressRange', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['169.254.169.254', 'link-local'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['172.15.255.255', 'public'],
    ['172.32.0.1', 'public'],
    ['100.63.255.255', 'public'],
    ['100.128.0.1', 'public'],
    ['192.169.0.1', 'public'],
    ['8.8.8.8', 'public'],
  ])('IPv4 %s is %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
  });

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:a9fe:a9fe]', 'link-local'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:c0a8:0101::1', 'private'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'reserved'],
    ['2001:4860:4860::8888', 'public'],
    ['2606:4700::1111', 'public'],
  ])('IPv6 %s is %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
  });

  it.each(['example.com', '256.0.0.1', '1.2.3', '1::2::3', '12345::1', ':::', '1:2:3:4:5:6:7:8:9', ''])(
    '%j is no address',
    (text) => {
      expect(addressRange(text)).toBeUndefined();
    },
  );
});

describe('hostRange of a URL as Node parses it', () => {
  it.each([
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://017700000001/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://0/', 'unspecified'],
    ['http://0xa9.0xfe.0xa9.0xfe/latest/meta-data', 'link-local'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', 'loopback'],
    ['http://[fd00::1]:8080/', 'unique-local'],
    ['http://localhost:3000/', 'loopback'],
    ['http://LOCALHOST./', 'loopback'],
    ['http://api.localhost/', 'loopback'],
    ['https://hooks.example.com/', undefined],
    ['https://localhost.example.com/', undefined],
    ['https://93.184.215.14/', 'public'],
  ])('%s is %s', (url, range) => {
    expect(hostRange(new URL(url).hostname)).toBe(range);
  });
});
