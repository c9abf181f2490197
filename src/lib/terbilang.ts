/**
 * Amounts written out in Indonesian words ("terbilang"), as a kwitansi states the sum besides the
 * figures: 150.000 is "seratus lima puluh ribu". The forms are the standard ones (KBBI): se- for
 * one hundred and one thousand (seratus, seribu), "sebelas" and "-belas" for 11 to 19, "miliar"
 * for 10^9, "triliun" for 10^12.
 */
const ONES = ["", "satu", "dua", "tiga", "empat", "lima", "enam", "tujuh", "delapan", "sembilan"];
const SCALES: [number, string][] = [
  [1e12, "triliun"],
  [1e9, "miliar"],
  [1e6, "juta"],
  [1e3, "ribu"],
];

function belowThousand(n: number): string[] {
  const words: string[] = [];
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 1) words.push("seratus");
  else if (hundreds > 1) words.push(ONES[hundreds], "ratus");
  if (rest === 10) words.push("sepuluh");
  else if (rest === 11) words.push("sebelas");
  else if (rest > 11 && rest < 20) words.push(ONES[rest - 10], "belas");
  else {
    if (rest >= 20) words.push(ONES[Math.floor(rest / 10)], "puluh");
    if (rest % 10) words.push(ONES[rest % 10]);
  }
  return words;
}

/** A whole number from 0 up to (not including) 10^15, in words, lower case: 2019500 -> "dua juta sembilan belas ribu lima ratus". */
export function terbilang(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0 || n >= 1e15) throw new RangeError(`terbilang: not a whole number from 0 below 10^15: ${n}`);
  if (n === 0) return "nol";
  const words: string[] = [];
  let rest = n;
  for (const [size, name] of SCALES) {
    const count = Math.floor(rest / size);
    rest %= size;
    if (count === 0) continue;
    // One thousand is "seribu"; one million is "satu juta" (se- only for ratus and ribu).
    if (count === 1 && size === 1e3) words.push("seribu");
    else words.push(...belowThousand(count), name);
  }
  words.push(...belowThousand(rest));
  return words.join(" ");
}

/** An amount of rupiah as a kwitansi writes it: "Seratus lima puluh ribu rupiah". */
export function rupiahInWords(amount: number): string {
  const words = `${terbilang(amount)} rupiah`;
  return words.charAt(0).toUpperCase() + words.slice(1);
}
