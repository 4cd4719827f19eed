import type { PublicSchema } from '../../api/public';
import { t } from '../../i18n/i18n';

/** A WhatsApp Flow (Meta's form) as the public API describes it. */
export type WhatsappFlow = PublicSchema<'WhatsappFlow'>;
type Catalog = typeof import('../../locales/en/whatsapp-flows.json');

/** Meta's Flow categories, in the order its "Create Flow" lists them. */
export const FLOW_CATEGORIES = [
  'SIGN_UP',
  'SIGN_IN',
  'APPOINTMENT_BOOKING',
  'LEAD_GENERATION',
  'SHOPPING',
  'CONTACT_US',
  'CUSTOMER_SUPPORT',
  'SURVEY',
  'OTHER',
] as const satisfies readonly WhatsappFlow['categories'][number][];

export const flowStatusLabel = (status: string): string =>
  t(`whatsapp-flows:statuses.${status as keyof Catalog['statuses']}`, { defaultValue: status });

export const flowCategoryLabel = (category: string): string =>
  t(`whatsapp-flows:categories.${category as keyof Catalog['categories']}`, { defaultValue: category });

/** A Flow's status in words, coloured as a second cue (never the only one). */
export function FlowStatusBadge({ status }: { status: string }) {
  const tone = status === 'PUBLISHED' ? 'ok' : status === 'DRAFT' ? 'wait' : 'bad';
  return <span class={`status-badge ${tone}`}>{flowStatusLabel(status)}</span>;
}
