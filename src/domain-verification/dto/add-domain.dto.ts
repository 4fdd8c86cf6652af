import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength } from 'class-validator';

/** The body of `POST /api/v1/forms/{id}/domains`. Checks run bottom-up. */
export class AddDomainDto {
  @ApiProperty({
    description:
      'The site to accept submissions from: a bare host name such as `example.com` (no scheme, port or path). ' +
      'It is trimmed, lower-cased and converted to ASCII (IDNA, e.g. `bücher.de` → `xn--bcher-kva.de`). ' +
      'Once verified, its subdomains are accepted too. IP addresses, `localhost` and bare top-level domains are refused.',
    example: 'example.com',
    maxLength: 253,
  })
  @MaxLength(1000, { message: '$property is too long' })
  @IsString({ message: '$property must be a string' })
  @IsDefined({ message: '$property is required' })
  domain: string;
}
