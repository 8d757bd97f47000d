import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/**
 * The WebAuthn library, loaded at the first ceremony: most API processes serve none, and it holds about 3.6 MiB of
 * heap in every process that loads it.
 */
function webAuthn(): typeof import('@simplewebauthn/server') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only here, as the comment above says
  return require('@simplewebauthn/server') as typeof import('@simplewebauthn/server');
}

/** What a browser's ceremony is checked against: the console's origin, and its host name as the relying party's id. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/** A passkey as it is stored: its credential's id (base64url), public key (COSE), signature counter and transports. */
export interface StoredPasskey {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
}

/** How long a browser has to finish a ceremony; its challenge is kept as long. */
export const PASSKEY_CEREMONY_MS = 5 * 60_000;
export const MAX_PASSKEY_NAME = 60;
export const PASSKEY_NAME_MESSAGE = `Name the passkey (at most ${MAX_PASSKEY_NAME} characters), such as the device it is on.`;
/** The one answer to a registration the browser did not prove: its challenge spent, expired or never given included. */
export const PASSKEY_NOT_ADDED = 'The passkey was not added: your browser did not finish. Try again.';
export const PASSKEY_ADDED_ALREADY = 'That passkey is added already.';

/** The relying party of a site served at `origin` (scheme, host and port): the host name alone is its id. */
export function relyingParty(origin: string, name: string): RelyingParty {
  const url = new URL(origin);
  return { id: url.hostname, origin: url.origin, name };
}

/** A passkey's name as typed, trimmed; null when it is blank or too long. */
export function passkeyName(typed: string): string | null {
  const name = typed.trim().replace(/\s+/g, ' ');
  return name.length === 0 || [...name].length > MAX_PASSKEY_NAME ? null : name;
}

/**
 * The browser's answer to a ceremony, as the page's script sends it (JSON in a form field): parsed, or null when it is
 * not JSON of a public-key credential. Its contents are checked by the verification that follows.
 */
export function parseCredential<T extends RegistrationResponseJSON | AuthenticationResponseJSON>(sent: string): T | null {
  try {
    const parsed = JSON.parse(sent) as Partial<T> | null;
    const shaped =
      typeof parsed === 'object' &&
      parsed !== null &&
      typeof parsed.id === 'string' &&
      parsed.id === parsed.rawId &&
      parsed.type === 'public-key' &&
      typeof parsed.response === 'object' &&
      parsed.response !== null;
    return shaped ? ({ clientExtensionResults: {}, ...parsed } as T) : null;
  } catch {
    return null;
  }
}

/**
 * A new passkey's options for navigator.credentials.create: a discoverable credential (so that it signs in without
 * an address first) with user verification (so that it is both factors), never one of the person's existing ones.
 * `userId` is the person's id as bytes, the user handle the authenticator keeps.
 */
export function passkeyRegistrationOptions(
  party: RelyingParty,
  person: { userId: string; userName: string; displayName: string },
  existing: readonly Pick<StoredPasskey, 'credentialId' | 'transports'>[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return webAuthn().generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userID: new TextEncoder().encode(person.userId),
    userName: person.userName,
    userDisplayName: person.displayName,
    timeout: PASSKEY_CEREMONY_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

/** The new passkey a registration proves, checked against its challenge and the relying party; null when it proves none. */
export async function verifiedRegistration(party: RelyingParty, response: RegistrationResponseJSON, challenge: string): Promise<StoredPasskey | null> {
  try {
    const { verified, registrationInfo } = await webAuthn().verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      requireUserVerification: true,
    });
    if (!verified) return null;
    const { id, publicKey, counter, transports } = registrationInfo.credential;
    return { credentialId: id, publicKey, counter, transports: transports ?? [] };
  } catch {
    return null;
  }
}

/**
 * A new passkey, named as the person typed it and proved by the browser's answer to the challenge (taken by the
 * caller: null when there was none); or the refusal's words.
 */
export async function newPasskey(
  party: RelyingParty,
  typedName: string,
  response: RegistrationResponseJSON | null,
  challenge: string | null,
): Promise<{ error: string } | (StoredPasskey & { name: string })> {
  const name = passkeyName(typedName);
  if (name === null) return { error: PASSKEY_NAME_MESSAGE };
  const passkey = response === null || challenge === null ? null : await verifiedRegistration(party, response, challenge);
  return passkey === null ? { error: PASSKEY_NOT_ADDED } : { ...passkey, name };
}

/** Options for navigator.credentials.get without an address: the browser offers the site's discoverable passkeys. */
export function passkeyAuthenticationOptions(party: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return webAuthn().generateAuthenticationOptions({ rpID: party.id, timeout: PASSKEY_CEREMONY_MS, userVerification: 'required' });
}

/**
 * The passkey's new signature counter when `response` is its signature over the challenge, with the person verified
 * (a passkey is both factors); null when it is not, or when the counter went back (a cloned authenticator).
 */
export async function verifiedAuthentication(
  party: RelyingParty,
  response: AuthenticationResponseJSON,
  challenge: string,
  passkey: StoredPasskey,
): Promise<number | null> {
  try {
    const { verified, authenticationInfo } = await webAuthn().verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    });
    return verified ? authenticationInfo.newCounter : null;
  } catch {
    return null;
  }
}
