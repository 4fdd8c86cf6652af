import { REDACTED, redactKeys, redactUrl } from './redaction.js';

const KEY = 'fgk_AbCdEfGh12345678-_xyz';
const ENCODED_KEY = 'fgk%5FAbCdEfGh12345678-_xyz';

describe('redactUrl', () => {
  it('redacts a secret parameter whose name is percent-encoded', () => {
    expect(redactUrl(`/api/v1/forms?%61piKey=${ENCODED_KEY}`)).toBe(
      `/api/v1/forms?%61piKey=${REDACTED}`,
    );
    expect(redactUrl('/x?%70%61%73%73%77%6F%72%64=hunter2')).toBe(
      `/x?%70%61%73%73%77%6F%72%64=${REDACTED}`,
    );
  });

  it('matches parameter names without regard to case, dashes or underscores', () => {
    expect(
      redactUrl('/x?APIKEY=a&ApI_KeY=b&api-key=c&x-api-key=d&Token=e&keep=1'),
    ).toBe(
      `/x?APIKEY=${REDACTED}&ApI_KeY=${REDACTED}&api-key=${REDACTED}&x-api-key=${REDACTED}&Token=${REDACTED}&keep=1`,
    );
    expect(redactUrl('/x?api+key=a&apiKey[]=b')).toBe(
      `/x?api+key=${REDACTED}&apiKey[]=${REDACTED}`,
    );
  });

  it('redacts an email address passed as a parameter (personal data)', () => {
    expect(
      redactUrl('/api/v1/erasure/export?email=ada%40example.com&Email=b@c.de'),
    ).toBe(`/api/v1/erasure/export?email=${REDACTED}&Email=${REDACTED}`);
  });

  it('hides the authorization code and state of an SSO callback', () => {
    expect(
      redactUrl(
        '/dashboard/sso/callback?code=abc123&state=xyz&iss=https%3A%2F%2Fidp',
      ),
    ).toBe(
      `/dashboard/sso/callback?code=${REDACTED}&state=${REDACTED}&iss=https%3A%2F%2Fidp`,
    );
  });

  it('redacts every value of a repeated parameter', () => {
    expect(redactUrl(`/x?apiKey=${KEY}&apiKey=other&apikey=third`)).toBe(
      `/x?apiKey=${REDACTED}&apiKey=${REDACTED}&apikey=${REDACTED}`,
    );
  });

  it('redacts a key under any parameter name, in the path, and encoded twice', () => {
    expect(redactUrl(`/x?q=${KEY}&note=${ENCODED_KEY}`)).toBe(
      `/x?q=${REDACTED}&note=${REDACTED}`,
    );
    expect(redactUrl(`/x?q=${KEY.replace('_', '%255F')}`)).toBe(
      `/x?q=${REDACTED}`,
    );
    expect(redactUrl(`/api/v1/${ENCODED_KEY}/forms`)).toBe(
      `/api/v1/${REDACTED}/forms`,
    );
    expect(redactUrl(`/x?${KEY}`)).toBe(`/x?${REDACTED}`);
    expect(redactUrl('/x?fga%5FAbCdEfGh12345678=1')).toBe(`/x?${REDACTED}`);
  });

  it('redacts the token of a confirmation link, however the path is spelled', () => {
    expect(redactUrl('/confirm-email/abc123_-XYZ')).toBe(
      '/confirm-email/[REDACTED]',
    );
    expect(redactUrl('/%63onfirm-email/abc123?next=1')).toBe(
      '/%63onfirm-email/[REDACTED]?next=1',
    );
    expect(redactUrl('/confirm-email')).toBe('/confirm-email');
    expect(redactUrl('/dashboard/confirm-emails/x')).toBe(
      '/dashboard/confirm-emails/x',
    );
  });

  it("redacts the token of an invitation link, also inside a sign-in page's next", () => {
    expect(redactUrl('/dashboard/invitations/abc123_-XYZ/accept')).toBe(
      '/dashboard/invitations/[REDACTED]/accept',
    );
    expect(
      redactKeys(
        '"url":"/dashboard/login?next=%2Fdashboard%2Finvitations%2Fabc123_-XYZ"',
      ),
    ).toBe(
      '"url":"/dashboard/login?next=%2Fdashboard%2Finvitations%2F[REDACTED]"',
    );
    expect(redactUrl('/api/v1/account/invitations')).toBe(
      '/api/v1/account/invitations',
    );
  });

  it('redacts the token of a signed download link, and only that', () => {
    const token = '01KB0000000000000000000000.mf3k2x9.AbCdEfGhIjKlMnOpQrStUv';
    expect(redactUrl(`/files/${token}`)).toBe('/files/[REDACTED]');
    expect(redactUrl(`/%66iles/${token.replace(/\./g, '%2E')}?x=1`)).toBe(
      '/%66iles/[REDACTED]?x=1',
    );
    expect(
      redactUrl('/api/v1/forms/f1/submissions/s1/files/01KB00000000000000'),
    ).toBe('/api/v1/forms/f1/submissions/s1/files/01KB00000000000000');
  });

  it('leaves ordinary URLs alone and drops a fragment', () => {
    expect(redactUrl('/api/v1/forms/abc/submissions?limit=25&q=hello')).toBe(
      '/api/v1/forms/abc/submissions?limit=25&q=hello',
    );
    expect(redactUrl('/x?bad=%E0%A4%A&y=2')).toBe('/x?bad=%E0%A4%A&y=2');
    expect(redactUrl(`/x#apiKey=${KEY}`)).toBe('/x');
  });
});

describe('redactKeys', () => {
  it('replaces anything shaped like a form or account key, in any case', () => {
    expect(
      redactKeys(
        `a ${KEY} b "FGA_abcdefghijkl" c fgk%5fabcdefghij d fgk_short`,
      ),
    ).toBe(`a ${REDACTED} b "${REDACTED}" c ${REDACTED} d fgk_short`);
  });

  it('replaces the token of every download link in a line', () => {
    const token = '01KB0000000000000000000000.mf3k2x9.AbCdEfGhIjKlMnOpQrStUv';
    expect(
      redactKeys(
        `{"url":"https://forms.example/files/${token}","b":"/files%2F${token.replace(/\./g, '%2e')}\\"}`,
      ),
    ).toBe(
      `{"url":"https://forms.example/files/${REDACTED}","b":"/files%2F${REDACTED}\\"}`,
    );
    expect(
      redactKeys('GET /api/v1/forms/f/submissions/s/files/01KB0 200'),
    ).toBe('GET /api/v1/forms/f/submissions/s/files/01KB0 200');
  });

  it('replaces the secret parts of chat channel addresses and unsubscribe links', () => {
    expect(
      redactKeys(
        'POST https://api.telegram.org/bot123456:AAF1bcDEfgh-IJK/sendMessage failed',
      ),
    ).toBe(`POST https://api.telegram.org/bot123456:${REDACTED} failed`);
    expect(
      redactKeys('https://hooks.slack.com/services/T000/B000/XXXXsecret'),
    ).toBe(`https://hooks.slack.com/services/${REDACTED}`);
    expect(redactKeys('https://discord.com/api/webhooks/1234/tok-en_X')).toBe(
      `https://discord.com/api/webhooks/1234/${REDACTED}`,
    );
    expect(
      redactKeys(
        'https://x.logic.azure.com/workflows/a?api-version=1&sig=Zs9_k',
      ),
    ).toBe(
      `https://x.logic.azure.com/workflows/a?api-version=1&sig=${REDACTED}`,
    );
    expect(redactKeys('GET /unsubscribe/acc.abcdef.sig 200')).toBe(
      `GET /unsubscribe/${REDACTED} 200`,
    );
  });
});
