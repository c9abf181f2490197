import { createHmac } from "node:crypto";
import { expect, it } from "vitest";
import { simulatedCallback } from "../src/billing/simulator.ts";

it("pay:simulate signs the callback body as Tripay does (hex HMAC-SHA256 of the raw body)", async () => {
  const { body, signature } = await simulatedCallback({ id: "inv_1", reference: "DEV-T1", amount: 20000 }, "PAID", "priv-key");
  expect(JSON.parse(body)).toMatchObject({ reference: "DEV-T1", merchant_ref: "inv_1", total_amount: 20000, status: "PAID" });
  expect(signature).toBe(createHmac("sha256", "priv-key").update(body).digest("hex"));
});
