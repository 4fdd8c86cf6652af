// SMTP_URL, MAIL_FROM and PUBLIC_URL: email is off without both mail variables, and a bad
// value stops the boot with a message that names the variable and never repeats a password.
import { ConfigError, describeSmtp, loadConfig } from './app-config.js';

const SECRET = 's'.repeat(40);
const load = (env: Record<string, string>) =>
  loadConfig({ APP_SECRET: SECRET, ...env });

function errorFor(env: Record<string, string>): ConfigError {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('mail configuration', () => {
  it('leaves email off by default, with PUBLIC_URL on localhost and the port', () => {
    expect(load({})).toMatchObject({
      mail: null,
      publicUrl: 'http://localhost:3000',
    });
    expect(load({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it('turns email on with SMTP_URL and MAIL_FROM', () => {
    const config = load({
      SMTP_URL: 'smtps://user:p%40ss@mail.example.com:465',
      MAIL_FROM: 'Formgate <forms@example.com>',
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://user:p%40ss@mail.example.com:465',
      from: { name: 'Formgate', address: 'forms@example.com' },
    });
    expect(describeSmtp(config.mail!)).toBe('smtps://mail.example.com:465');
    expect(
      load({ SMTP_URL: 'smtp://localhost', MAIL_FROM: 'forms@example.com' })
        .mail!.from,
    ).toEqual({ name: '', address: 'forms@example.com' });
    expect(
      load({
        SMTP_URL: 'smtp://localhost',
        MAIL_FROM: '"Forms, Inc" <forms@example.com>',
      }).mail!.from,
    ).toEqual({ name: 'Forms, Inc', address: 'forms@example.com' });
  });

  it('needs both mail variables or neither', () => {
    expect(errorFor({ SMTP_URL: 'smtp://localhost' }).message).toBe(
      'Invalid configuration: MAIL_FROM is required when SMTP_URL is set',
    );
    expect(errorFor({ MAIL_FROM: 'forms@example.com' }).message).toBe(
      'Invalid configuration: SMTP_URL is required when MAIL_FROM is set',
    );
  });

  it('refuses an SMTP_URL that is not smtp:// or smtps://, without repeating it', () => {
    for (const url of [
      'http://user:hunter2@mail.example.com',
      'mail.example.com:587',
      'smtp://user:hunter2@',
    ]) {
      const error = errorFor({ SMTP_URL: url, MAIL_FROM: 'forms@example.com' });
      expect(error.variable).toBe('SMTP_URL');
      expect(error.message).toMatch(/^Invalid configuration: SMTP_URL /);
      expect(error.message).not.toContain('hunter2');
    }
  });

  it('refuses a MAIL_FROM that is not an address', () => {
    for (const from of [
      'forms',
      'Forms <forms@localhost>',
      'a@example.com, b@example.com',
      'Bad\r\nBcc: x@example.com <forms@example.com>',
    ]) {
      const error = errorFor({ SMTP_URL: 'smtp://localhost', MAIL_FROM: from });
      expect(error.variable).toBe('MAIL_FROM');
    }
  });

  it('takes PUBLIC_URL without its trailing slash and refuses other shapes', () => {
    expect(load({ PUBLIC_URL: 'https://forms.example.com/' }).publicUrl).toBe(
      'https://forms.example.com',
    );
    expect(load({ PUBLIC_URL: 'https://example.com/forms//' }).publicUrl).toBe(
      'https://example.com/forms',
    );
    for (const url of [
      'forms.example.com',
      'ftp://forms.example.com',
      'https://forms.example.com/?a=1',
      'https://user:pw@forms.example.com',
    ]) {
      expect(errorFor({ PUBLIC_URL: url }).variable).toBe('PUBLIC_URL');
    }
  });
});
