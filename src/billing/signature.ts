/**
 * Tripay's HMAC-SHA256 signatures (hex), WebCrypto only, no imports: the Worker, the tests and
 * `npm run pay:simulate` all sign with this file.
 */
const enc = new TextEncoder();

export async function hmacHex(key: string, message: string): Promise<string> {
  const k = await crypto.subtle.importKey("raw", enc.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", k, enc.encode(message)));
  return [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Signature of a transaction-create request: merchant code + merchant ref + amount. */
export const transactionSignature = (privateKey: string, merchantCode: string, merchantRef: string, amount: number) =>
  hmacHex(privateKey, `${merchantCode}${merchantRef}${amount}`);

/** Signature of a callback: the raw body. */
export const callbackSignature = (privateKey: string, rawBody: string) => hmacHex(privateKey, rawBody);
