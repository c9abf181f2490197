/**
 * `wilayah_report`: an agent that finds a fact wrong (a name misspelled, a postal code of another
 * place) reports it as a person would (POST /api/v1/wilayah/{id}/reports): the same rules, throttles
 * and audit, free of charge. Agents are the callers most likely to notice a contradiction between
 * sources, and a report is only a suggestion a person reviews, so they may file one.
 */
import { z } from "zod";
import { validationError } from "../lib/errors";
import { reportInput, reportResponse } from "../reports/schemas";
import { fileReport } from "../reports/service";
import { type AccountTool, accountToolConfig } from "./server";

const input = reportInput.extend({ id: z.string().max(40).describe("The region's Kemendagri code, dots optional (32.73.09.1001)") });

export const reportTool: AccountTool = {
  name: "wilayah_report",
  config: accountToolConfig({
    name: "wilayah_report",
    description:
      "Report a wrong fact about one region (by its Kemendagri code): the field (name, parent, postal_code, coordinates, boundary, population, missing_child, other), the value you believe right, and evidence (at least one of a URL, a regulation number, free text up to 2,000 characters). A person reviews it; the account is emailed the answer. Use it only with evidence, not for a guess. Free of charge; at most 5 a minute. Returns the report (status open).",
    input,
    output: reportResponse,
    writes: true,
  }),
  run: async (args, call) => {
    const parsed = input.safeParse(args);
    if (!parsed.success) throw validationError("VALIDATION_ERROR", "arguments", parsed.error.issues);
    const { id, ...report } = parsed.data;
    return {
      data: await fileReport(call.env, id, report, { userId: call.principal.userId, keyId: call.principal.keyId, requestId: call.requestId, ip: call.ip }),
    };
  },
};
