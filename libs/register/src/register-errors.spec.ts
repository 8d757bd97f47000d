import { bodyExcerpt, RegisterError, RegisterParseError, RegisterUnavailableError } from './register-errors';

describe('register errors', () => {
  it('are RegisterErrors named after their class, with status and excerpt defaulting to null', () => {
    const unavailable = new RegisterUnavailableError('down');
    const parse = new RegisterParseError('odd page', { httpStatus: 200, excerpt: '<html>' });

    expect(unavailable).toBeInstanceOf(RegisterError);
    expect(unavailable).not.toBeInstanceOf(RegisterParseError);
    expect(unavailable.name).toBe('RegisterUnavailableError');
    expect([unavailable.httpStatus, unavailable.excerpt]).toEqual([null, null]);
    expect(parse).toBeInstanceOf(RegisterError);
    expect(parse.name).toBe('RegisterParseError');
    expect([parse.httpStatus, parse.excerpt]).toEqual([200, '<html>']);
  });
});

describe('bodyExcerpt', () => {
  it('collapses white space and trims', () => {
    expect(bodyExcerpt('  <h1>Sorry</h1>\n\n\t<p>Try  later</p>\r\n')).toBe('<h1>Sorry</h1> <p>Try later</p>');
  });

  it('keeps at most 200 characters', () => {
    expect(bodyExcerpt(`${'a'.repeat(150)}\n\n${'b'.repeat(5000)}`)).toBe(`${'a'.repeat(150)} ${'b'.repeat(49)}`);
  });

  it('is null for an empty or blank body', () => {
    expect(bodyExcerpt('')).toBeNull();
    expect(bodyExcerpt(' \n\t ')).toBeNull();
  });
});
