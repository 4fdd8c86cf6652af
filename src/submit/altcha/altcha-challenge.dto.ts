import { ApiProperty } from '@nestjs/swagger';

export class AltchaParametersDto {
  @ApiProperty({ example: 'PBKDF2/SHA-256' })
  algorithm: string;

  @ApiProperty({
    description: 'PBKDF2 iterations per attempt (ALTCHA_COST).',
    example: 1000,
  })
  cost: number;

  @ApiProperty({
    description: 'Unix seconds after which a solution is refused.',
    example: 1767225600,
  })
  expiresAt: number;

  @ApiProperty({ example: 32 })
  keyLength: number;

  @ApiProperty({ example: '4a0f3c9e1b7d2a6f5c8e0b3d9a7f1e2c' })
  keyPrefix: string;

  @ApiProperty({ example: '9c1f…' })
  keySignature: string;

  @ApiProperty({ example: '5b2e9f0c7a1d4e8b3f6a9c2d7e0b1f4a' })
  nonce: string;

  @ApiProperty({ example: 'e3a1c5f7b9d2e4f6a8c0b2d4f6e8a0c2' })
  salt: string;
}

/** An ALTCHA challenge, exactly what the `altcha` widget expects from its `challenge` URL. */
export class AltchaChallengeDto {
  @ApiProperty({ type: AltchaParametersDto })
  parameters: AltchaParametersDto;

  @ApiProperty({
    description: 'HMAC of the parameters (the service checks it).',
    example: '0d4f…',
  })
  signature: string;
}
