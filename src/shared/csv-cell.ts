/**
 * Spreadsheet-safe CSV cells, without Node's modules: the export, the import and the dashboard's
 * downloads (the list of rows an import kept out) use the same rule.
 */

/** Cells a spreadsheet would read as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * The same after a `;`: a spreadsheet whose locale separates cells with `;` (much of Europe) splits
 * the line there, and the part after it is a cell of its own (quotes around it do not stop that).
 */
const FORMULA_AFTER_SEMICOLON = /;(?=[=+\-@\t\r])/g;
/** An E.164 phone (`+` and digits only) is at worst read as a number, never as a formula. */
const PLAIN_PHONE = /^\+\d{1,15}$/;
/** An apostrophe the export put in front of a formula character, at the start or after a `;`. */
const NEUTRALISED = /(^|;)'(?=[=+\-@\t\r])/g;

/** A cell a spreadsheet shows as text: wherever it could start a formula, an apostrophe goes first. */
export function neutraliseCell(value: string): string {
  const cell = value.replace(FORMULA_AFTER_SEMICOLON, ";'");
  return FORMULA_START.test(cell) && !PLAIN_PHONE.test(cell) ? `'${cell}` : cell;
}

/** A cell of an exported file as it was before neutraliseCell, so an export imports back unchanged. */
export function restoreCell(cell: string): string {
  return cell.replace(NEUTRALISED, '$1');
}
