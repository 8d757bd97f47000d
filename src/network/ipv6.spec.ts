import { ipv6Groups } from './ipv6';

describe('ipv6Groups', () => {
  it.each([
    ['::', [0, 0, 0, 0, 0, 0, 0, 0]],
    ['::1', [0, 0, 0, 0, 0, 0, 0, 1]],
    ['2001:db8::', [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]],
    ['2001:db8:1:2:3:4:5:6', [0x2001, 0xdb8, 1, 2, 3, 4, 5, 6]],
    ['2001:DB8:0:0:1::FFFF', [0x2001, 0xdb8, 0, 0, 1, 0, 0, 0xffff]],
    ['::ffff:192.168.1.1', [0, 0, 0, 0, 0, 0xffff, 0xc0a8, 0x0101]],
    ['64:ff9b::10.0.0.1', [0x64, 0xff9b, 0, 0, 0, 0, 0x0a00, 1]],
    ['fe80::1%eth0', [0xfe80, 0, 0, 0, 0, 0, 0, 1]],
  ])('reads %s', (address, groups) => {
    expect(ipv6Groups(address)).toEqual(groups);
  });
});
