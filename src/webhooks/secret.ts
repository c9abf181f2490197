/**
 * Webhook signing secrets. Unlike API keys and passwords (credentials people present to us, of which
 * only hashes are stored), a signing secret is one WE use to sign every delivery, so we must be able
 * to read it back: it is stored encrypted (AES-256-GCM, WebCrypto) under a key derived with HKDF-SHA-256
 * from the Worker secret WEBHOOK_SECRET_KEY, or, when that is not set, from JWT_SECRET with a distinct
 * info string (so the derived key is never the session-signing key). The stored text names which one
 * sealed it: `v1.w.<iv>.<ciphertext>` (WEBHOOK_SECRET_KEY) or `v1.j...` (JWT_SECRET). The secret itself
 * is shown to its owner once, on creation and on each roll (Standard Webhooks format: `whsec_` and the
 * base64 of 24 random bytes).
 */
import { base64, fromBase64, randomBytes } from "../lib/crypto";

const enc = new TextEncoder();
const SECRET_BYTES = 24;
const SALT = enc.encode("wilayah-api/webhook-secrets");
const INFO = { w: "webhook signing secrets v1 (WEBHOOK_SECRET_KEY)", j: "webhook signing secrets v1 (derived from JWT_SECRET)" } as const;
type KeySource = keyof typeof INFO;

export function generateSigningSecret(): string {
  return `whsec_${base64(randomBytes(SECRET_BYTES))}`;
}

type SecretEnv = { WEBHOOK_SECRET_KEY?: string; JWT_SECRET: string };

async function sealingKey(env: SecretEnv, source: KeySource): Promise<CryptoKey> {
  const material = source === "w" ? env.WEBHOOK_SECRET_KEY : env.JWT_SECRET;
  if (!material) throw new Error(`webhook secrets: ${source === "w" ? "WEBHOOK_SECRET_KEY" : "JWT_SECRET"} is not set`);
  const ikm = await crypto.subtle.importKey("raw", enc.encode(material), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: SALT, info: enc.encode(INFO[source]) }, ikm, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
}

/** The stored form of a signing secret; `aad` (the endpoint's id) binds it to its row. */
export async function sealSecret(env: SecretEnv, secret: string, aad: string): Promise<string> {
  const source: KeySource = env.WEBHOOK_SECRET_KEY ? "w" : "j";
  const iv = randomBytes(12);
  const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: enc.encode(aad) }, await sealingKey(env, source), enc.encode(secret));
  return `v1.${source}.${base64(iv)}.${base64(new Uint8Array(ct))}`;
}

export async function openSecret(env: SecretEnv, sealed: string, aad: string): Promise<string> {
  const [version, source, iv, ct] = sealed.split(".");
  if (version !== "v1" || (source !== "w" && source !== "j") || !iv || !ct) throw new Error("webhook secrets: unknown stored format");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(iv), additionalData: enc.encode(aad) },
    await sealingKey(env, source),
    fromBase64(ct),
  );
  return new TextDecoder().decode(plain);
}
