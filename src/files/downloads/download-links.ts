// Signed download links for stored files (docs/files.md): what webhook payloads and emails
// carry, so that a recipient can fetch a file without an API key. A link names one file and
// the moment it stops working, signed with a key derived from APP_SECRET:
//   PUBLIC_URL/files/<fileId>.<expires, seconds since 1970 in base 36>.<HMAC-SHA256, 128 bits>
// A link cannot be widened to another file or a later expiry without the secret, and works
// only while the file exists (deleting a submission or rotating APP_SECRET ends it).
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** How long a link in a webhook payload or an email works: 7 days. */
export const DOWNLOAD_LINK_SECONDS = 7 * 24 * 3600;

const FILE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const TOKEN = /^([A-Za-z0-9_-]{1,64})\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22})$/;

export class DownloadLinks {
  private readonly key: Buffer;

  constructor(
    appSecret: string,
    private readonly publicUrl: string,
  ) {
    this.key = Buffer.from(
      hkdfSync('sha256', appSecret, 'formgate', 'formgate:file-links', 32),
    );
  }

  private mac(fileId: string, expires: string): Buffer {
    return createHmac('sha256', this.key)
      .update(`${fileId}.${expires}`)
      .digest()
      .subarray(0, 16);
  }

  /** A token for `fileId`, valid until `now` + `seconds`. */
  token(
    fileId: string,
    now = new Date(),
    seconds = DOWNLOAD_LINK_SECONDS,
  ): string {
    if (!FILE_ID.test(fileId)) throw new Error(`not a file id: ${fileId}`);
    const expires = Math.floor(now.getTime() / 1000 + seconds).toString(36);
    return `${fileId}.${expires}.${this.mac(fileId, expires).toString('base64url')}`;
  }

  /** The whole link: PUBLIC_URL/files/<token>. */
  url(fileId: string, now = new Date()): string {
    return `${this.publicUrl.replace(/\/$/, '')}/files/${this.token(fileId, now)}`;
  }

  /**
   * The file id a token names, or undefined when it is malformed, forged or expired (the
   * three are not told apart: a caller answers 404 to each).
   */
  verify(token: string, now = new Date()): string | undefined {
    const match = TOKEN.exec(token);
    if (match === null) return undefined;
    const [, fileId, expires, signature] = match;
    const given = Buffer.from(signature, 'base64url');
    // Strict: Node ignores the unused low bits of the last character, so four spellings
    // of each signature would decode alike; only the one this service writes is a link.
    if (given.toString('base64url') !== signature) return undefined;
    const expected = this.mac(fileId, expires);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return undefined;
    }
    if (parseInt(expires, 36) * 1000 <= now.getTime()) return undefined;
    return fileId;
  }
}
