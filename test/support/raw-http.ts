import { connect, Socket } from 'node:net';

/** What came back over one raw TCP connection. */
export interface RawExchange {
  /** every byte the server sent, as latin1 text (one character per byte) */
  received: string;
  /** milliseconds from connecting until the server closed the connection; null when it was still open */
  closedAfterMs: number | null;
}

/** One HTTP answer read from raw bytes. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Opens a TCP connection to the server of `baseUrl`, lets `talk` write to it, and collects the answer
 * until the server closes the connection, `waitMs` has passed or (unless `untilClosed`) a complete
 * answer has arrived.
 */
export function exchangeRaw(
  baseUrl: string,
  talk: (socket: Socket) => void,
  { waitMs = 3000, untilClosed = false }: { waitMs?: number; untilClosed?: boolean } = {},
): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let received = '';
    const finish = (closedAfterMs: number | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ received, closedAfterMs });
    };
    const timer = setTimeout(() => finish(null), waitMs);
    socket.on('connect', () => talk(socket));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (!untilClosed && parseRawAnswers(received).complete) finish(null);
    });
    socket.on('error', () => undefined); // a reset after the answer is the server closing; judged by `received`
    socket.on('close', () => finish(Date.now() - started));
  });
}

/** Writes `bytes` as they are and collects the answer (see exchangeRaw). */
export function sendRaw(baseUrl: string, bytes: string | Buffer, waitMs?: number): Promise<RawExchange> {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
  return exchangeRaw(baseUrl, (socket) => socket.write(data), { waitMs });
}

function readChunked(text: string, from: number): { body: string; end: number } | null {
  let body = '';
  let at = from;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (Number.isNaN(size)) return null;
    if (size === 0) return text.length >= lineEnd + 4 ? { body, end: lineEnd + 4 } : null;
    if (text.length < lineEnd + 2 + size + 2) return null;
    body += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * Splits raw bytes into the HTTP answers they hold (bodies by Content-Length or chunked).
 * `complete` is false when the bytes end inside an answer, or hold none.
 */
export function parseRawAnswers(raw: string): { answers: RawAnswer[]; complete: boolean; rest: string } {
  const answers: RawAnswer[] = [];
  let at = 0;
  while (at < raw.length) {
    const headEnd = raw.indexOf('\r\n\r\n', at);
    if (headEnd < 0) break;
    const [statusLine, ...lines] = raw.slice(at, headEnd).split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (!status) break;
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    let body: string;
    let end: number;
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const chunked = readChunked(raw, headEnd + 4);
      if (!chunked) break;
      ({ body, end } = chunked);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (raw.length < headEnd + 4 + length) break;
      body = raw.slice(headEnd + 4, headEnd + 4 + length);
      end = headEnd + 4 + length;
    }
    answers.push({ status: Number(status[1]), headers, body: Buffer.from(body, 'latin1').toString('utf8') });
    at = end;
  }
  return { answers, complete: answers.length > 0 && at === raw.length, rest: raw.slice(at) };
}
