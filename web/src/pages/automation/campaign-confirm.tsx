import { Link } from '../../router';
import {} from '../../ui';
import { TemplatePreview } from '../templates/template-parts';
import { formatDateTime } from '../../i18n/format';

export type Audience = { tag: string } | { search: { query: string } } | { contact_ids: string[] };

/** The message as one recipient sees it (POST /api/dashboard/campaigns/review). */
interface MessagePreview {
  contact_name: string | null;
  contact_phone: string;
  header_text: string | null;
  header_media: { type: string; link: string } | null;
  text: string;
  footer: string | null;
  buttons: { type: string; text: string }[];
}

/** The confirm step's facts: who it reaches, what the first of them sees, and what it would cost. */
export interface Review {
  audience: Audience;
  contacts: number;
  opted_out: number;
  preview: MessagePreview | null;
  cost: { currency: string; category: string; messages: number; rate: number | null; total: number | null };
}

/** A datetime-local value ("2025-06-01T09:30") as ISO 8601 with the viewer's own offset. */
export function localToIso(local: string): string {
  const date = new Date(local);
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.abs(Math.trunc(n))).padStart(2, '0');
  const seconds = local.length === 16 ? ':00' : '';
  return `${local}${seconds}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

const noun = (n: number) => `${n} contact${n === 1 ? '' : 's'}`;

/** The last step: whom it reaches, the message as the first recipient will see it, its cost; then send or go back. */
export function ConfirmSend(props: {
  review: Review;
  name: string;
  at: string | null;
  busy: boolean;
  onConfirm: (event: Event) => void;
  onBack: () => void;
}) {
  const { contacts, opted_out, preview, cost } = props.review;
  const reached = contacts - opted_out;
  const when = props.at ? `on ${formatDateTime(localToIso(props.at))}` : 'now';
  return (
    <section class="confirm-send" aria-labelledby="confirm-send-title" data-testid="confirm-send">
      <h2 id="confirm-send-title">Confirm</h2>
      {reached === 0 ? (
        <p role="alert">
          Nobody would receive it: {contacts === 0 ? 'no contact is in this audience' : 'every contact in it opted out'}
          .
        </p>
      ) : (
        <p role="status">
          “{props.name.trim()}” goes to <strong>{noun(reached)}</strong> {when}
          {opted_out > 0 && ` (${noun(opted_out)} who opted out will be skipped)`}. Contacts who join the audience
          before it is sent are included.
        </p>
      )}
      {preview && <FirstMessage preview={preview} />}
      {reached > 0 && !preview && (
        <p role="alert">Nobody would receive it: a variable’s placeholder has no value for any of these contacts.</p>
      )}
      {reached > 0 && <CostLine cost={cost} />}
      <div class="form-actions">
        <button type="button" onClick={props.onBack}>
          Change something
        </button>
        {reached > 0 && preview && (
          <button type="button" class="primary" disabled={props.busy} onClick={props.onConfirm}>
            {props.at ? `Schedule for ${noun(reached)}` : `Send to ${noun(reached)}`}
          </button>
        )}
      </div>
    </section>
  );
}

/** The template filled for the first recipient, drawn as WhatsApp shows it. */
function FirstMessage({ preview }: { preview: MessagePreview }) {
  const who = preview.contact_name ? `${preview.contact_name} (${preview.contact_phone})` : preview.contact_phone;
  const media = preview.header_media;
  const content = {
    header_type: media ? media.type.toUpperCase() : preview.header_text ? 'TEXT' : null,
    header_content: media?.link ?? preview.header_text ?? '',
    body: preview.text,
    footer: preview.footer ?? '',
    buttons: preview.buttons,
  };
  return (
    <div class="confirm-preview">
      <p>The first recipient, {who}, will see:</p>
      <TemplatePreview content={content} label="The message as the first recipient will see it" />
    </div>
  );
}

/** The estimated cost at the workspace's rates, or why there is none. */
function CostLine({ cost }: { cost: Review['cost'] }) {
  const messages = `${cost.messages} ${cost.category} message${cost.messages === 1 ? '' : 's'}`;
  if (cost.rate === null || cost.total === null) {
    return (
      <p data-testid="campaign-cost">
        Estimated cost: unknown, no rate is set for {cost.category} messages. Set your rates under{' '}
        <Link href="/reports">Reports</Link>.
      </p>
    );
  }
  return (
    <p data-testid="campaign-cost">
      Estimated cost: <strong>{money(cost.total, cost.currency)}</strong> ({messages} at{' '}
      {money(cost.rate, cost.currency)} each, at your rates; Meta bills the final amount).
    </p>
  );
}

/** An amount in the workspace's currency, keeping the fractions of a cent that per-message rates have. */
const money = (amount: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 4 }).format(amount);
