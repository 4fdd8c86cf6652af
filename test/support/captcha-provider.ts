// A loopback server that plays Turnstile, hCaptcha and reCAPTCHA's verify endpoints
// (`POST /turnstile`, `/hcaptcha`, `/recaptcha`, form-encoded secret/response/remoteip),
// answering by the token it is sent:
//   good…  → {success: true, hostname: example.com} (reCAPTCHA: score 0.9, action submit)
//   good@<host>!<action>#… → the same, solved on <host> (and, for reCAPTCHA, made for
//            <action>); either part may be left out
//   low…   → {success: true, score: 0.3}
//   bad…   → {success: false, error-codes: [invalid-input-response]}
//   stale… → {success: false, error-codes: [timeout-or-duplicate]}
//   slow…  → no answer until the connection is closed (a timeout)
//   down…  → 500
// Every request is recorded with its parsed fields.
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProviderRequest {
  provider: string;
  fields: Record<string, string>;
  contentType: string | undefined;
}

export interface CaptchaProviderServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The three *_VERIFY_URL variables pointing here. */
  env: Record<string, string>;
  received: ProviderRequest[];
  close(): Promise<void>;
}

export async function startCaptchaProvider(): Promise<CaptchaProviderServer> {
  const received: ProviderRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const provider = (req.url ?? '').slice(1);
      const fields = Object.fromEntries(
        new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
      );
      received.push({
        provider,
        fields,
        contentType: req.headers['content-type'],
      });
      const token = fields.response ?? '';
      const json = (body: unknown, status = 200) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (token.startsWith('slow')) {
        hanging.add(res);
        return;
      }
      if (token.startsWith('down')) return json({ error: 'down' }, 500);
      if (token.startsWith('bad')) {
        return json({
          success: false,
          'error-codes': ['invalid-input-response'],
        });
      }
      if (token.startsWith('stale')) {
        return json({
          success: false,
          'error-codes': ['timeout-or-duplicate'],
        });
      }
      if (token.startsWith('low')) {
        return json({ success: true, score: 0.3, action: 'submit' });
      }
      if (token.startsWith('good')) {
        const made = /^good(?:@([^!#]+))?(?:!([^#]+))?#/.exec(token);
        if (made !== null) {
          const hostname = made[1] ?? 'example.com';
          return json(
            provider === 'recaptcha'
              ? {
                  success: true,
                  score: 0.9,
                  action: made[2] ?? 'submit',
                  hostname,
                }
              : { success: true, hostname },
          );
        }
        return json(
          provider === 'recaptcha'
            ? { success: true, score: 0.9, action: 'submit' }
            : { success: true, hostname: 'example.com' },
        );
      }
      return json({
        success: false,
        'error-codes': ['invalid-input-response'],
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: {
      TURNSTILE_VERIFY_URL: `${url}/turnstile`,
      HCAPTCHA_VERIFY_URL: `${url}/hcaptcha`,
      RECAPTCHA_VERIFY_URL: `${url}/recaptcha`,
    },
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
