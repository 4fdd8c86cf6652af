import { ApiProperty } from '@nestjs/swagger';
import type { DomainStatus } from '../form-domain.entity.js';

const EXAMPLE_TOKEN = '3f9c1e7a5b2d4c8e9f0a1b2c3d4e5f60718293a4';

/** The DNS record that proves ownership of a domain. */
export class TxtRecordDto {
  @ApiProperty({ enum: ['TXT'], example: 'TXT' })
  type: 'TXT';

  @ApiProperty({
    description: 'Where to publish the record: the domain itself.',
    example: 'example.com',
  })
  name: string;

  @ApiProperty({
    description: 'The exact value of the TXT record.',
    example: `formgate-verification=${EXAMPLE_TOKEN}`,
  })
  value: string;

  @ApiProperty({
    description:
      'Also accepted: the same value published on this name instead (useful when the domain already has many TXT records or is a CNAME).',
    example: '_formgate.example.com',
  })
  alternativeName: string;
}

/** A domain of a form and the state of its verification. */
export class DomainResponseDto {
  @ApiProperty({
    description:
      'The domain in lower-case ASCII (IDNA) form, as used in the URL of this resource.',
    example: 'example.com',
  })
  domain: string;

  @ApiProperty({
    enum: ['pending', 'verified'],
    description:
      '`pending` until a verification finds the TXT record; then `verified` for good (a later failed check does not downgrade it: delete the domain to revoke it).',
    example: 'pending',
  })
  status: DomainStatus;

  @ApiProperty({
    description:
      'The random verification token of this domain (the part of `record.value` after `=`).',
    example: EXAMPLE_TOKEN,
  })
  token: string;

  @ApiProperty({ type: TxtRecordDto })
  record: TxtRecordDto;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the domain was first verified.',
    example: null,
  })
  verifiedAt: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When DNS was last checked for this domain.',
    example: null,
  })
  lastCheckedAt: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why the last check did not find the record (not found, NXDOMAIN, timeout…); null after a successful check.',
    example: null,
  })
  lastError: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    example: '2025-11-21T10:15:30.123Z',
  })
  createdAt: string;
}

export class DomainListResponseDto {
  @ApiProperty({ type: [DomainResponseDto] })
  data: DomainResponseDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Set when the configuration will refuse submissions, e.g. domain verification is on but no domain is verified yet.',
    example:
      'Domain verification is on but no domain is verified yet: only development hosts (localhost, 127.0.0.1, 192.168.x.x) can submit.',
  })
  warning: string | null;
}
