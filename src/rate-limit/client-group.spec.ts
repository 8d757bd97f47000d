import { clientGroup } from './client-group';

describe('clientGroup', () => {
  it('counts an IPv4 client by its address, also when written IPv4-mapped', () => {
    expect(clientGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one client, however written', () => {
    const group = '2001:db8:aa:1::/64';
    for (const address of ['2001:db8:aa:1::1', '2001:db8:aa:1:ffff:ffff:ffff:ffff', '2001:0DB8:00aa:0001:1234::5', '2001:db8:aa:1:0:0:0:0']) {
      expect([address, clientGroup(address)]).toEqual([address, group]);
    }
  });

  it('tells neighbouring /64s apart', () => {
    expect(clientGroup('2001:db8:aa:2::1')).toBe('2001:db8:aa:2::/64');
    expect(clientGroup('2001:db8:ab:1::1')).toBe('2001:db8:ab:1::/64');
    expect(clientGroup('::1')).toBe('0:0:0:0::/64');
  });

  it('passes anything else through unchanged', () => {
    expect(clientGroup('unknown')).toBe('unknown');
  });
});
