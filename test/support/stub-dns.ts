import { createSocket, Socket } from 'node:dgram';

/** The records of one name: A records as dotted quads, AAAA records written out in full (eight groups of four hex digits). */
export interface StubRecords {
  A?: string[];
  AAAA?: string[];
}

const TYPE_A = 1;
const TYPE_AAAA = 28;
const NXDOMAIN = 3;

/**
 * A DNS server on loopback that answers A and AAAA questions from a fixed table, for the worker's webhook resolver
 * (WEBHOOK_DNS_SERVERS): names can point anywhere without touching the machine's resolver or /etc/hosts. It records
 * every question, so that a test can show the answer it gave was the one acted on.
 */
export class StubDns {
  readonly questions: { name: string; type: 'A' | 'AAAA' | number }[] = [];

  private constructor(
    private readonly socket: Socket,
    private readonly records: Record<string, StubRecords>,
  ) {
    socket.on('message', (message, peer) => {
      const answer = this.answer(message);
      if (answer) socket.send(answer, peer.port, peer.address);
    });
  }

  static async start(records: Record<string, StubRecords>): Promise<StubDns> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new StubDns(socket, records);
  }

  /** host:port, as WEBHOOK_DNS_SERVERS takes it */
  get server(): string {
    const { address, port } = this.socket.address();
    return `${address}:${port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private answer(query: Buffer): Buffer | null {
    if (query.length < 12 || query.readUInt16BE(4) !== 1) return null;
    const labels: string[] = [];
    let offset = 12;
    while (offset < query.length && query[offset] !== 0) {
      labels.push(query.subarray(offset + 1, offset + 1 + query[offset]).toString('ascii'));
      offset += query[offset] + 1;
    }
    const questionEnd = offset + 5;
    if (questionEnd > query.length) return null;
    const type = query.readUInt16BE(offset + 1);
    const name = labels.join('.').toLowerCase();
    this.questions.push({ name, type: type === TYPE_A ? 'A' : type === TYPE_AAAA ? 'AAAA' : type });

    const entry = this.records[name];
    const rdatas = !entry ? [] : type === TYPE_A ? (entry.A ?? []).map(ipv4Bytes) : type === TYPE_AAAA ? (entry.AAAA ?? []).map(ipv6Bytes) : [];
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0); // the query's id
    header.writeUInt16BE(0x8180 | (entry ? 0 : NXDOMAIN), 2); // a response, recursion desired and available
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(rdatas.length, 6);
    const answers = rdatas.map((rdata) => {
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      record.writeUInt16BE(type, 2);
      record.writeUInt16BE(1, 4); // class IN
      record.writeUInt32BE(5, 6); // TTL
      record.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([record, rdata]);
    });
    return Buffer.concat([header, query.subarray(12, questionEnd), ...answers]);
  }
}

const ipv4Bytes = (address: string): Buffer => Buffer.from(address.split('.').map(Number));
const ipv6Bytes = (address: string): Buffer => Buffer.from(address.split(':').join(''), 'hex');
