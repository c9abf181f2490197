/** The rules of account fields, for every surface that takes them (REST bodies, portal forms). */
import { z } from "zod";

export const emailInput = z.string().trim().toLowerCase().email("must be an email address").max(254);
export const passwordInput = z.string().min(8, "at least 8 characters").max(128, "at most 128 characters");
