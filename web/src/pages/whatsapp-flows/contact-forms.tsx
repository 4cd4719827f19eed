import { action } from '../../api/client';
import { formatDateTime } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { Link } from '../../router';
import { ErrorNote, Table, useAsync } from '../../ui';
import { answerValue } from './answer-value';

/** The WhatsApp Flows a contact completed, newest first: each form's name, when, and what they answered. */
export function ContactForms({ contactId }: { contactId: string }) {
  const answers = useAsync(() => action('list-whatsapp-flow-answers', { contact_id: contactId }), [contactId]);
  return (
    <section aria-labelledby="forms-title" class="panel">
      <h2 id="forms-title">{t('contacts:forms.title')}</h2>
      <ErrorNote error={answers.error} />
      {answers.data?.length === 0 && <p class="muted">{t('contacts:forms.none')}</p>}
      {answers.data && answers.data.length > 0 && (
        <Table
          caption={t('contacts:forms.title')}
          columns={[t('contacts:forms.flow'), t('contacts:forms.received'), t('contacts:forms.answers')]}
        >
          {answers.data.map((answer) => (
            <tr key={answer.id}>
              <td>
                {answer.whatsapp_flow_id ? (
                  <Link href={`/whatsapp-flows/${answer.whatsapp_flow_id}/answers`}>{answer.whatsapp_flow_name}</Link>
                ) : (
                  t('contacts:forms.unknownFlow')
                )}
              </td>
              <td class="nowrap">{formatDateTime(answer.created_at)}</td>
              <td dir="auto">
                {answer.fields.map((field) => `${field.label}: ${answerValue(field.value)}`).join(' · ')}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
