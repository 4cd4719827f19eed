import { t } from '../i18n/i18n';

const STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'received'] as const;
type Status = (typeof STATUSES)[number];

/** A message's status (src/messages/message.schema.ts) in the person's language; an unknown one as it came. */
export function messageStatusName(status: string): string {
  return STATUSES.includes(status as Status) ? t(`common:messageStatus.${status as Status}`) : status;
}
