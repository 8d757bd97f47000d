import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the server took it: its envelope's recipients and its raw text. */
export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback (the smtp-server package), keeping every message it is sent. */
export class MailReceiver {
  private constructor(
    private readonly server: SMTPServer,
    readonly url: string,
    readonly messages: readonly ReceivedMail[],
  ) {}

  static async start(): Promise<MailReceiver> {
    const messages: ReceivedMail[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let raw = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (raw += chunk));
        stream.on('end', () => {
          messages.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    return new MailReceiver(server, `smtp://127.0.0.1:${port}`, messages);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
