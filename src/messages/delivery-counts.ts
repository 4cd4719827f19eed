/** How far a set of outbound messages got (a campaign's, a report's). */
export interface DeliveryCounts {
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

/**
 * The one count of outbound messages that every page, the API and the reports show. Statuses only
 * move forward, so each count includes the messages that went further: a read message was sent and
 * delivered too (sent ≥ delivered ≥ read). Queued and failed messages stand alone.
 */
export function deliveryCounts(byStatus: Iterable<{ status: string; n: number }>): DeliveryCounts {
  const counted = new Map<string, number>();
  for (const { status, n } of byStatus) counted.set(status, (counted.get(status) ?? 0) + n);
  const of = (...statuses: string[]) => statuses.reduce((sum, status) => sum + (counted.get(status) ?? 0), 0);
  return {
    queued: of('queued'),
    sent: of('sent', 'delivered', 'read'),
    delivered: of('delivered', 'read'),
    read: of('read'),
    failed: of('failed'),
  };
}
