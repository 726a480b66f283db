// An entity's slug: the second key entity resolution tries after the name itself ("Ada
// Lovelace", "ada-lovelace" and "ADA_LOVELACE" meet). Pure.

/** Lower case, diacritics dropped, runs of anything but letters and digits as one hyphen. */
export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}
