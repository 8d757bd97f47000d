/**
 * True when the body has an own key the DTO does not declare. Checked on the parsed body before
 * class-transformer copies it: class-transformer skips keys that name a function on the target
 * (`constructor`, `toString`, `valueOf`, `hasOwnProperty`), so whitelisting after it misses them.
 */
export function hasUndeclaredFields(body: object, declared: ReadonlySet<string>): boolean {
  return Object.keys(body).some((key) => !declared.has(key));
}
