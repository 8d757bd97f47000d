import { invitationText } from './invitation-mail';

describe('invitationText', () => {
  it('puts the link alone on its line, with the role and how long it works', () => {
    const text = invitationText('https://lvs.example/console/join/abc', 'compliance', 72);
    expect(text.split('\n')).toContain('https://lvs.example/console/join/abc');
    expect(text).toContain('with the role compliance.');
    expect(text).toContain('for 72 hours');
  });
});
