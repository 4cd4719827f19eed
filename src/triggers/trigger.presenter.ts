import { formatTimestamp } from '../shared/time.js';
import type { CampaignRecord, WhatsappFlowAnswerRecord } from './trigger.schema.js';

type Json = Record<string, unknown>;

interface CampaignRow {
  id: string;
  name: string;
  status: string;
  template_id: string | null;
  template_name: string | null;
  created_at: string;
  sent_at: string | null;
}
interface RunFeedRow {
  context: string;
  created_at: string;
}

/** A sent campaign as new-campaign-sent shows it: its record's time is when it was sent. */
export const presentCampaign = (row: CampaignRow): CampaignRecord => ({
  id: row.id,
  name: row.name,
  status: row.status,
  template_id: row.template_id,
  template_name: row.template_name,
  campaign_created_at: formatTimestamp(row.created_at),
  created_at: formatTimestamp(row.sent_at!),
});

/** A flow run or sequence enrolment as its feed shows it. */
export const presentRun = <Row extends RunFeedRow>({ context, created_at, ...row }: Row) => ({
  ...row,
  context: JSON.parse(context) as Json,
  created_at: formatTimestamp(created_at),
});

interface AnswerRow extends Omit<WhatsappFlowAnswerRecord, 'fields' | 'created_at'> {
  fields: string;
  received_at: string;
}

/** A WhatsApp Flow's answer as its feed shows it: its record's time is when it was received. */
export const presentAnswer = ({ fields, received_at, ...row }: AnswerRow): WhatsappFlowAnswerRecord => ({
  ...row,
  fields: JSON.parse(fields) as WhatsappFlowAnswerRecord['fields'],
  created_at: formatTimestamp(received_at),
});
