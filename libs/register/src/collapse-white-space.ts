/** Turns every run of white space (line breaks and no-break spaces included) into one space, and trims. */
export function collapseWhiteSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
