/**
 * Tripay's HMAC-SHA256 signatures (hex): the Worker, the tests and `npm run pay:simulate` all sign
 * with this file (hence the `.ts` import: Node runs the script).
 */
import { hmacSha256Hex } from "../lib/crypto.ts";

/** Signature of a transaction-create request: merchant code + merchant ref + amount. */
export const transactionSignature = (privateKey: string, merchantCode: string, merchantRef: string, amount: number) =>
  hmacSha256Hex(privateKey, `${merchantCode}${merchantRef}${amount}`);

/** Signature of a callback: the raw body. */
export const callbackSignature = (privateKey: string, rawBody: string) => hmacSha256Hex(privateKey, rawBody);
