// The OpenAPI description of each domains route, one composed decorator per route.
import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { ErrorDto, ValidationErrorDto } from '../common/dto/error.dto.js';
import {
  FORM_ID_PARAM,
  FORM_NOT_FOUND_RESPONSE,
} from '../forms/routes/form-route.openapi.js';
import {
  VERIFICATIONS_PER_ACCOUNT,
  VERIFICATIONS_PER_FORM,
} from './domains.service.js';
import { AddDomainDto } from './dto/add-domain.dto.js';
import {
  DomainListResponseDto,
  DomainResponseDto,
} from './dto/domain-response.dto.js';

const DOMAIN_PARAM = {
  name: 'domain',
  description:
    'A domain of the form, as listed by `GET /api/v1/forms/{id}/domains`, e.g. `example.com` (case and IDN spelling do not matter: `Bücher.de` finds `xn--bcher-kva.de`).',
};
const FORM_OR_DOMAIN_NOT_FOUND = {
  type: ErrorDto,
  description:
    'No such form (or the key may not reach it), or the form has no such domain.',
  example: { error: 'Domain not found' },
};

const TXT_INSTRUCTIONS = [
  'To prove you own the domain, publish at your DNS provider a **TXT record** on the domain',
  '(`record.name`, e.g. `example.com`) whose value is exactly `record.value`',
  '(`formgate-verification=<token>`). If you cannot add a TXT record on the domain itself, publish',
  'the same value on `record.alternativeName` (`_formgate.example.com`) instead. Then call',
  '`POST /api/v1/forms/{id}/domains/{domain}/verify`. The record may be removed after verification.',
].join(' ');

export const ListDomainsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: "List a form's domains",
      description:
        'The domains of the form with their verification state and TXT record, oldest first. ' +
        '`warning` is set when domain verification is on but no domain is verified yet ' +
        '(then only development hosts — localhost, 127.0.0.1, 192.168.x.x — can submit).',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiOkResponse({ type: DomainListResponseDto }),
    ApiNotFoundResponse(FORM_NOT_FOUND_RESPONSE),
  );

export const AddDomainDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Add a domain to a form',
      description:
        'Adds a domain in state `pending` and answers the TXT record that proves ownership. ' +
        TXT_INSTRUCTIONS +
        ' When the form has `domainVerification` on, submissions are accepted only from verified ' +
        'domains and their subdomains (and from development hosts). At most 20 domains per form.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiBody({ type: AddDomainDto }),
    ApiCreatedResponse({
      type: DomainResponseDto,
      description: 'The domain, pending, with the TXT record to publish.',
    }),
    ApiBadRequestResponse({
      type: ValidationErrorDto,
      description:
        'Not a bare, public domain name (a URL, a port, an IP address, localhost, a bare TLD…).',
      example: {
        error: 'Validation failed',
        errors: [
          'domain must be a bare host name such as example.com, without https:// or any other scheme',
        ],
      },
    }),
    ApiConflictResponse({
      type: ErrorDto,
      description:
        'The domain is already on this form, or the form has 20 domains already.',
      example: { error: 'example.com is already a domain of this form' },
    }),
    ApiNotFoundResponse(FORM_NOT_FOUND_RESPONSE),
  );

export const VerifyDomainDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Verify a domain by its DNS TXT record',
      description:
        'Looks up the TXT records of the domain and of `_formgate.<domain>` now (a few seconds at ' +
        'most) and answers the domain: `verified` when a record equals `formgate-verification=<token>` ' +
        '(records split into several strings are joined), else still `pending` with the reason in ' +
        '`lastError` (record not found, domain does not exist, DNS timeout…). DNS problems never ' +
        'make this call fail: retry after publishing or fixing the record. A verified domain stays ' +
        'verified if the record disappears later; delete the domain to revoke it. ' +
        `At most ${VERIFICATIONS_PER_FORM} verifications a minute per form and ${VERIFICATIONS_PER_ACCOUNT} per account (429 with Retry-After beyond). ` +
        TXT_INSTRUCTIONS,
    }),
    ApiParam(FORM_ID_PARAM),
    ApiParam(DOMAIN_PARAM),
    ApiOkResponse({
      type: DomainResponseDto,
      description:
        'The domain after the check: `verified`, or `pending` with `lastError`.',
    }),
    ApiNotFoundResponse(FORM_OR_DOMAIN_NOT_FOUND),
    ApiTooManyRequestsResponse({
      type: ErrorDto,
      description:
        'Too many verifications of this form (or account) in the last minute; `Retry-After` says when to retry.',
      example: {
        error: `Too many verifications of this form's domains: at most ${VERIFICATIONS_PER_FORM} a minute. Retry in 42 seconds.`,
      },
    }),
  );

export const RemoveDomainDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Remove a domain from a form',
      description:
        'Removes the domain, verified or not. With domain verification on, submissions from it ' +
        'and its subdomains are refused from the next request on.',
    }),
    ApiParam(FORM_ID_PARAM),
    ApiParam(DOMAIN_PARAM),
    ApiNoContentResponse({ description: 'Removed.' }),
    ApiNotFoundResponse(FORM_OR_DOMAIN_NOT_FOUND),
  );
