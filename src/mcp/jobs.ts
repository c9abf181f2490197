/** `jobs_status`: an agent reports on a bulk job started elsewhere (by a script, the portal, a colleague's key of the same account). */
import { z } from "zod";
import { jobListResponse } from "../jobs/schemas";
import { getJob, jobView, listJobs } from "../jobs/service";
import { validationError } from "../lib/errors";
import { type AccountTool, accountToolConfig } from "./server";

const input = z.strictObject({
  id: z.string().trim().min(1).max(64).optional().describe("A job's id (`job_...`); without it, the account's ten latest jobs"),
});
const output = jobListResponse.omit({ meta: true });

export const jobsStatusTool: AccountTool = {
  name: "jobs_status",
  config: accountToolConfig({
    name: "jobs_status",
    description:
      "The state and progress of the account's bulk jobs (POST /api/v1/jobs: a file of addresses or codes answered row by row): state (queued, running, done, failed, cancelled), rows done of total, rows with a warning, the estimated time left, and where to download the result. Give `id` for one job, or nothing for the ten latest. Not metered.",
    input,
    output,
  }),
  run: async (args, call) => {
    const parsed = input.safeParse(args);
    if (!parsed.success) throw validationError("INVALID_QUERY", "arguments", parsed.error.issues);
    const userId = call.principal.userId;
    const jobs = parsed.data.id ? [await getJob(call.env, userId, parsed.data.id)] : (await listJobs(call.env, userId, { page: 1, per_page: 10 })).jobs;
    return { data: jobs.map((j) => jobView(j)) };
  },
};
