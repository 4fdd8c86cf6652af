import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountRepositoriesModule } from '../accounts/account-repositories.module.js';
import { SecretBoxService } from '../auth/secret-box.service.js';
import { AccountSecurityPolicy } from './account-security-policy.entity.js';
import { AccountSecurityPolicyRepository } from './account-security-policy.repository.js';
import { FactorAuditRecorder } from './factor-audit-recorder.js';
import { Passkey } from './passkey.entity.js';
import { PasskeyRepository } from './passkey.repository.js';
import { PasskeysService } from './passkeys.service.js';
import { RecoveryCode } from './recovery-code.entity.js';
import { RecoveryCodeRepository } from './recovery-code.repository.js';
import { SecondFactorsService } from './second-factors.service.js';
import { SecurityPolicyService } from './security-policy.service.js';
import { TotpService } from './totp.service.js';
import { UserTotp } from './user-totp.entity.js';
import { UserTotpRepository } from './user-totp.repository.js';
import { WebauthnChallenge } from './webauthn-challenge.entity.js';
import { WebauthnChallengeRepository } from './webauthn-challenge.repository.js';

/** Users' second factors (TOTP, recovery codes, passkeys) and accounts' sign-in policy. */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      UserTotp,
      RecoveryCode,
      Passkey,
      WebauthnChallenge,
      AccountSecurityPolicy,
    ]),
    AccountRepositoriesModule,
  ],
  providers: [
    UserTotpRepository,
    RecoveryCodeRepository,
    PasskeyRepository,
    WebauthnChallengeRepository,
    AccountSecurityPolicyRepository,
    SecretBoxService,
    FactorAuditRecorder,
    TotpService,
    PasskeysService,
    SecondFactorsService,
    SecurityPolicyService,
  ],
  exports: [
    TotpService,
    PasskeysService,
    SecondFactorsService,
    SecurityPolicyService,
  ],
})
export class SecondFactorsModule {}
