// The WebAuthn relying party this install is: PUBLIC_URL's origin and host. An IP address
// cannot be an RP ID, so an install reached by IP offers no passkeys.
import { isIP } from 'node:net';

export interface RelyingParty {
  /** The RP ID: PUBLIC_URL's host name. */
  id: string;
  /** The origin pages are served from (scheme, host, port), as browsers report it. */
  origin: string;
  name: string;
}

/** The relying party of `publicUrl`, or null when its host is an IP address. */
export function relyingPartyOf(publicUrl: string): RelyingParty | null {
  const url = new URL(publicUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return null;
  return { id: host, origin: url.origin, name: 'Formgate' };
}

/** The start line's warning for an install whose PUBLIC_URL is an IP address. */
export function passkeyWarning(publicUrl: string): string | null {
  return relyingPartyOf(publicUrl)
    ? null
    : `PUBLIC_URL (${publicUrl}) is an IP address: passkeys need a host name, so the dashboard offers none`;
}

/** The challenge a WebAuthn response signed, read from its client data (null if unreadable). */
export function challengeOf(response: unknown): string | null {
  if (typeof response !== 'object' || response === null) return null;
  const inner = (response as { response?: unknown }).response;
  if (typeof inner !== 'object' || inner === null) return null;
  const clientData = (inner as { clientDataJSON?: unknown }).clientDataJSON;
  if (typeof clientData !== 'string' || clientData.length > 4096) return null;
  try {
    const parsed: unknown = JSON.parse(
      Buffer.from(clientData, 'base64url').toString('utf8'),
    );
    const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && challenge.length <= 200
      ? challenge
      : null;
  } catch {
    return null;
  }
}
