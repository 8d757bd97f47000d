import { renderRawErrorAnswer } from './raw-error-answer';

describe('renderRawErrorAnswer', () => {
  it('renders a complete HTTP/1.1 answer with the status text, JSON type, exact length and Connection: close', () => {
    expect(
      renderRawErrorAnswer({
        status: 408,
        body: { code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time' },
      }),
    ).toBe(
      'HTTP/1.1 408 Request Timeout\r\n' +
        'Content-Type: application/json; charset=utf-8\r\n' +
        'Content-Length: 73\r\n' +
        'Connection: close\r\n' +
        '\r\n' +
        '{"code":"REQUEST_TIMEOUT","message":"The request did not arrive in time"}',
    );
  });

  it('counts the length in bytes, not characters', () => {
    const answer = renderRawErrorAnswer({ status: 400, body: { code: 'VALIDATION_ERROR', message: 'é' } });
    const json = '{"code":"VALIDATION_ERROR","message":"é"}';
    expect(answer).toContain(`Content-Length: ${json.length + 1}\r\n`);
    expect(answer.endsWith(`\r\n\r\n${json}`)).toBe(true);
  });

  it('names 431 by its standard reason phrase', () => {
    expect(renderRawErrorAnswer({ status: 431, body: { code: 'HEADERS_TOO_LARGE', message: 'x' } }).split('\r\n')[0]).toBe(
      'HTTP/1.1 431 Request Header Fields Too Large',
    );
  });
});
