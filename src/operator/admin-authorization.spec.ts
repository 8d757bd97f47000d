import { isAdminAuthorized } from './admin-authorization';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('isAdminAuthorized', () => {
  it.each([
    ['a bearer token', 'Bearer s3cret'],
    ['a lowercase scheme', 'bearer s3cret'],
    ['basic auth with any user', basic('admin', 's3cret')],
    ['basic auth with an empty user', basic('', 's3cret')],
  ])('accepts %s', (_, header) => {
    expect(isAdminAuthorized(header, 's3cret')).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['a wrong bearer token', 'Bearer s3cre'],
    ['a longer bearer token', 'Bearer s3cret2'],
    ['basic auth with a wrong password', basic('admin', 'nope')],
    ['basic auth with the token as user', basic('s3cret', '')],
    ['another scheme', 'Digest s3cret'],
    ['the bare token', 's3cret'],
  ])('refuses %s', (_, header) => {
    expect(isAdminAuthorized(header, 's3cret')).toBe(false);
  });

  it('refuses everything while no token is configured', () => {
    expect(isAdminAuthorized('Bearer ', '')).toBe(false);
  });
});
