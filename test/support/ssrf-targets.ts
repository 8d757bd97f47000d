import type { StubRecords } from './stub-dns';

/** Webhook URLs whose host is an IPv6 literal carrying a blocked IPv4 address (one per scheme), or in the discard-only prefix. */
export const BLOCKED_IPV6_URLS = [
  'https://[::ffff:a9fe:a9fe]/hook',
  'https://[::ffff:0:a00:1]/hook',
  'https://[::7f00:1]/hook',
  'https://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
  'https://[64:ff9b:1::a00:1]/hook',
  'https://[2002:c0a8:101::1]/hook',
  'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
  'https://[100::1]/hook',
];

/**
 * Names that resolve only to addresses a webhook must not reach: IPv6 addresses that carry a blocked IPv4 address
 * by each translation or tunnelling scheme, the discard-only prefix, and (by an A record) loopback itself.
 */
export const BLOCKED_BY_NAME: Record<string, StubRecords> = {
  'mapped.hooks.test': { AAAA: ['0000:0000:0000:0000:0000:ffff:a9fe:a9fe'] }, // 169.254.169.254
  'translated.hooks.test': { AAAA: ['0000:0000:0000:0000:ffff:0000:0a00:0001'] }, // 10.0.0.1
  'compatible.hooks.test': { AAAA: ['0000:0000:0000:0000:0000:0000:7f00:0001'] }, // 127.0.0.1
  'nat64.hooks.test': { AAAA: ['0064:ff9b:0000:0000:0000:0000:a9fe:a9fe'] }, // 169.254.169.254
  'nat64-local.hooks.test': { AAAA: ['0064:ff9b:0001:0000:0000:0000:c0a8:0101'] }, // 192.168.1.1
  '6to4.hooks.test': { AAAA: ['2002:7f00:0001:0000:0000:0000:0000:0001'] }, // 127.0.0.1
  'teredo.hooks.test': { AAAA: ['2001:0000:4136:e378:8000:63bf:5601:5601'] }, // client a9fe:a9fe, 169.254.169.254
  'discard.hooks.test': { AAAA: ['0100:0000:0000:0000:0000:0000:0000:0001'] },
  'receiver.hooks.test': { A: ['127.0.0.1'] },
};
