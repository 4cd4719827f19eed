import { formatNumber } from '../../i18n/format';

/**
 * A count for `t()`: `count` picks the plural form, the text shows it as the person's language writes
 * numbers (30,000 · 30.000 · ٣٠٬٠٠٠). Other values for the text's placeholders go in `values`.
 */
export function counted(count: number, values: Record<string, string> = {}) {
  return { count, replace: { ...values, count: formatNumber(count) } };
}
