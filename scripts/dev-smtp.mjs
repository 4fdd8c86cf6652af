// `npm run dev:smtp`: a mail catcher for development. An SMTP server on loopback that accepts
// every message without sending it anywhere and prints it to this terminal (sender,
// recipients, subject and text, links included), so confirmation links and notifications can
// be followed locally. Point Formgate at it with
//   SMTP_URL=smtp://127.0.0.1:2525 MAIL_FROM='Formgate <forms@example.com>' npm start
// It offers no STARTTLS (a self-signed certificate would make the client refuse it) and no
// authentication; it listens on loopback only.
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const port = Number(process.env.DEV_SMTP_PORT ?? 2525);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(
    `DEV_SMTP_PORT must be a port number, got "${process.env.DEV_SMTP_PORT}"`,
  );
  process.exit(2);
}

const server = new SMTPServer({
  logger: false,
  disabledCommands: ['STARTTLS', 'AUTH'],
  authOptional: true,
  onData(stream, session, callback) {
    simpleParser(stream).then(
      (mail) => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
        const from = session.envelope.mailFrom
          ? session.envelope.mailFrom.address
          : '';
        process.stdout.write(
          [
            `── mail ${new Date().toISOString()} ──`,
            `From: ${from}`,
            `To: ${to}`,
            `Subject: ${mail.subject ?? ''}`,
            '',
            (mail.text ?? '').trimEnd(),
            '',
          ].join('\n') + '\n',
        );
        callback();
      },
      (error) => callback(error),
    );
  },
});

server.listen(port, '127.0.0.1', () => {
  const address = server.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  process.stdout.write(
    `Mail catcher listening on smtp://127.0.0.1:${actual} (nothing is sent on; Ctrl+C stops it)\n` +
      `Start Formgate with: SMTP_URL=smtp://127.0.0.1:${actual} MAIL_FROM='Formgate <forms@example.com>' npm start\n`,
  );
});

// Stop at once: waiting for a sender's idle pooled connection to close would take 30 s.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => process.exit(0));
}
