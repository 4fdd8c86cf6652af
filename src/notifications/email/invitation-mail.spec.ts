import { composeInvitationMail, invitationLink } from './invitation-mail.js';

const INPUT = {
  publicUrl: 'https://forms.example.com',
  token: 'A'.repeat(43),
  accountName: 'Acme <b>Sales</b>\nBuy now',
  invitedBy: 'ada@example.com',
  role: 'editor',
  validDays: 7,
};

describe('composeInvitationMail', () => {
  it('names the account, the inviter and the role, with the link', () => {
    const mail = composeInvitationMail(INPUT);
    const link = `https://forms.example.com/dashboard/invitations/${'A'.repeat(43)}`;
    expect(invitationLink(INPUT.publicUrl, INPUT.token)).toBe(link);
    expect(mail.subject).toBe('You are invited to join a team on Formgate');
    expect(mail.text).toContain(
      'ada@example.com invited this address to the account "Acme <b>Sales</b>\\u000aBuy now" on forms.example.com, as editor.',
    );
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.text).toContain('works for 7 days');
    expect(mail.html).toContain(`<a href="${link}">${link}</a>`);
  });

  it('keeps a name on its line and escapes it in HTML', () => {
    const mail = composeInvitationMail(INPUT);
    expect(mail.text.split('\n')).not.toContain('Buy now');
    expect(mail.html).toContain('Acme &lt;b&gt;Sales&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Sales');
  });
});
