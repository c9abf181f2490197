/**
 * What each plan includes, in the reader's language. The plan catalogue (D1 `plans.features`) holds
 * one English list per plan, which the API returns as is; the pages (landing, Plans & billing) show
 * these lists instead, so an Indonesian page reads Indonesian. The quota and the per-minute limit
 * are not repeated here: the cards show them from the plan's own numbers. A plan added later
 * without lines here shows its catalogue list on English pages and none on Indonesian ones.
 */
import type { Lang } from "./i18n";

const FEATURES: Record<Lang, Record<string, string[]>> = {
  en: {
    free: ["All regional data endpoints and search", "MCP tool surface", "BMKG weather and earthquakes", "Pay-as-you-go credits beyond the quota"],
    starter: ["Everything in Free", "Email support"],
    pro: ["Everything in Starter", "Priority support"],
    business: ["Everything in Pro", "Invoice (faktur) on request"],
  },
  id: {
    free: ["Semua endpoint data wilayah dan pencarian", "Alat MCP untuk agen AI", "Cuaca dan gempa BMKG", "Kredit prabayar di atas kuota"],
    starter: ["Semua fitur Free", "Dukungan lewat email"],
    pro: ["Semua fitur Starter", "Dukungan prioritas"],
    business: ["Semua fitur Pro", "Faktur pajak atas permintaan"],
  },
};

export function planFeatures(lang: Lang, plan: { id: string; features: string[] }): string[] {
  return FEATURES[lang][plan.id] ?? (lang === "en" ? plan.features : []);
}
