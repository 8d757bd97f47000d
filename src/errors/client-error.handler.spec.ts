import { createServer, request, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { once } from 'node:events';
import { AnswersInProgress } from './client-error.handler';

describe('AnswersInProgress', () => {
  let server: Server;
  let answers: AnswersInProgress;
  let handed: Promise<[ServerResponse, Socket]>;

  beforeEach(async () => {
    server = createServer();
    answers = new AnswersInProgress();
    answers.follow(server);
    handed = new Promise((resolve) => server.once('request', (req, res: ServerResponse) => resolve([res, req.socket])));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const call = request({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', agent: false });
    call.on('response', (response) => response.resume());
    call.on('error', () => undefined); // the connection is cut when a test ends without an answer
    call.end();
  });
  afterEach(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  it('says an answer has started once its headers are out, and no longer once it is finished', async () => {
    const [response, socket] = await handed;
    expect(answers.started(socket)).toBe(false); // headers not sent yet
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('part');
    expect(answers.started(socket)).toBe(true);
    response.end('rest');
    await once(response, 'finish');
    expect(answers.started(socket)).toBe(false);
  });

  it('knows nothing of a socket that carried no request', async () => {
    const [response] = await handed;
    response.writeHead(200).write('part');
    expect(answers.started(new Socket())).toBe(false);
  });
});
