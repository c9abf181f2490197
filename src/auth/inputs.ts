/** The rules of account fields, for every surface that takes them (REST bodies, portal forms). */
import { z } from "zod";
import { displayText } from "../lib/text";

export const emailInput = z.string().trim().toLowerCase().email("must be an email address").max(254);
export const passwordInput = z.string().min(8, "at least 8 characters").max(128, "at most 128 characters");
/** At login any stored password is tried, so only the length bounds apply. */
export const loginPasswordInput = z.string().min(1).max(128);
export const NAME_MAX = 100;
export const nameInput = displayText(1, NAME_MAX);
