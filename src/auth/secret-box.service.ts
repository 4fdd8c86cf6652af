// AES-256-GCM encryption under a key derived from APP_SECRET (HKDF-SHA256).
import { Injectable } from '@nestjs/common';
import {
  createCipheriv,
  createDecipheriv,
  hkdfSync,
  randomBytes,
} from 'node:crypto';
import { AppConfig } from '../config/app-config.js';

const VERSION = 'v1';

@Injectable()
export class SecretBoxService {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    this.key = Buffer.from(
      hkdfSync(
        'sha256',
        config.appSecret,
        'formgate',
        'formgate:api-key-encryption',
        32,
      ),
    );
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([
      cipher.update(plaintext, 'utf8'),
      cipher.final(),
    ]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((part) =>
        typeof part === 'string' ? part : part.toString('base64url'),
      )
      .join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined) {
      throw new Error('Unrecognised encrypted value');
    }
    const decipher = createDecipheriv(
      'aes-256-gcm',
      this.key,
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}
