import { isIP } from 'node:net';

/** One DNS server as dns.Resolver#setServers takes it: an IP address, or IPv4:port, or [IPv6]:port. */
export function isDnsServerEntry(entry: string): boolean {
  if (isIP(entry) !== 0) return true;
  const withPort = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(entry);
  if (!withPort) return false;
  const [, v6, v4, port] = withPort;
  const portOk = Number(port) >= 1 && Number(port) <= 65535;
  return portOk && (v6 !== undefined ? isIP(v6) === 6 : isIP(v4) === 4);
}
