import { invitationText, passwordResetText } from './invitation-mail';

describe('invitationText', () => {
  it('puts the link alone on its line, with the role and how long it works', () => {
    const text = invitationText('https://lvs.example/console/join/abc', 'compliance', 72);
    expect(text.split('\n')).toContain('https://lvs.example/console/join/abc');
    expect(text).toContain('with the role compliance.');
    expect(text).toContain('for 72 hours');
  });
});

describe('passwordResetText', () => {
  it('puts the link alone on its line, with how long it works and what a reset leaves as it is', () => {
    const text = passwordResetText('https://lvs.example/console/reset-password/abc', 60);
    expect(text.split('\n')).toContain('https://lvs.example/console/reset-password/abc');
    expect(text).toContain('for 60 minutes');
    expect(text).toContain('Your second factor stays as it is');
  });
});
