/**
 * A run-time list of every member of a string union the server's schemas define. The renderer
 * imports those schemas as types only (no server code in its bundle), so a list it shows (a
 * select's options) is written out here; the compiler refuses a value the union does not have
 * and a member the list forgets.
 */
export function everyMember<T extends string>() {
  return <const L extends readonly T[]>(list: L & ([T] extends [L[number]] ? unknown : { missing: Exclude<T, L[number]> })): L => list
}
