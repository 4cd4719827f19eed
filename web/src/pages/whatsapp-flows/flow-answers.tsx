import { useEffect, useState } from 'preact/hooks';
import { action, v1, type ActionAnswer } from '../../api/client';
import { addEnglish, t } from '../../i18n/i18n';
import { formatDateTime } from '../../i18n/format';
import flowAnswers from '../../locales/en/flow-answers.json';
import { Link } from '../../router';
import { can, useSession } from '../../session';
import { ErrorNote, fieldErrors, Page, Table, TextField, useAsync, useSubmit } from '../../ui';
import { answerValue } from './answer-value';

// The page's words come with it (before it renders).
addEnglish({ 'flow-answers': flowAnswers });

type WhatsappFlow = ActionAnswer<'list-whatsapp-flows'>[number];
type Answer = ActionAnswer<'list-whatsapp-flow-answers'>[number];
type Column = { name: string; label: string };

/** Answers per page of the table; "Show older" brings the next. */
const PAGE = 50;

/**
 * A WhatsApp Flow's answers: a table with a column per field (labelled as the form labels it), newest
 * first, its CSV export, and which fields are saved on the contact.
 */
export function FlowAnswersPage({ id }: { id: string }) {
  const flows = useAsync(() => action('list-whatsapp-flows', {}), []);
  const flow = flows.data?.find((candidate) => candidate.id === id);
  const answers = useAnswers(id);
  const title = flow ? t('flow-answers:title', { name: flow.name }) : t('flow-answers:titleLoading');
  const columns = columnsOf(flow?.answer_fields ?? [], answers.shown);
  return (
    <Page
      title={title}
      actions={
        <a class="button" href={`/api/dashboard/whatsapp-flows/${id}/answers.csv`} download>
          {t('flow-answers:export')}
        </a>
      }
    >
      <ErrorNote error={flows.error ?? answers.error} />
      {flows.data && !flow && <p class="error">{t('flow-answers:notFound')}</p>}
      {answers.shown.length === 0 && !answers.loading ? (
        <p class="muted">{t('flow-answers:none')}</p>
      ) : (
        <Table
          caption={title}
          columns={[t('flow-answers:received'), t('flow-answers:contact'), ...columns.map((column) => column.label)]}
        >
          {answers.shown.map((answer) => (
            <AnswerRow key={answer.id} answer={answer} columns={columns} />
          ))}
        </Table>
      )}
      {answers.more && (
        <button type="button" disabled={answers.loading} onClick={answers.older}>
          {t('flow-answers:older')}
        </button>
      )}
      {flow && can(useSession().user, 'templates') && <AttributeMapping flow={flow} onSaved={flows.reload} />}
    </Page>
  );
}

function AnswerRow({ answer, columns }: { answer: Answer; columns: Column[] }) {
  const values = new Map(answer.fields.map((field) => [field.name, field.value]));
  return (
    <tr>
      <td class="nowrap">{formatDateTime(answer.created_at)}</td>
      <td>
        <Link href={`/contacts/${answer.contact_id}`}>{answer.contact_name ?? answer.contact_phone}</Link>
      </td>
      {columns.map((column) => (
        <td key={column.name} dir="auto">
          {answerValue(values.get(column.name))}
        </td>
      ))}
    </tr>
  );
}

/** The Flow's fields in the form's order, then any other an answer shown has (a field the form no longer has). */
function columnsOf(fields: Column[], answers: Answer[]): Column[] {
  const columns = new Map(fields.map((field) => [field.name, field]));
  for (const field of answers.flatMap((answer) => answer.fields)) {
    if (!columns.has(field.name)) columns.set(field.name, { name: field.name, label: field.label });
  }
  return [...columns.values()];
}

/** The Flow's answers, newest first, a page at a time. */
function useAnswers(whatsappFlowId: string) {
  const [shown, setShown] = useState<Answer[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [state, setState] = useState<{ loading: boolean; error?: unknown }>({ loading: true });
  const load = async (after: string | null) => {
    setState({ loading: true });
    try {
      const page = await v1.post('/v1/actions/list-whatsapp-flow-answers', {
        query: { paginate: 'cursor', limit: String(PAGE), ...(after && { cursor: after }) },
        body: { whatsapp_flow_id: whatsappFlowId },
      });
      setShown((earlier) => (after ? [...earlier, ...page.data] : page.data));
      setCursor(page.next_cursor);
      setState({ loading: false });
    } catch (error) {
      setState({ loading: false, error });
    }
  };
  useEffect(() => void load(null), [whatsappFlowId]);
  return { shown, ...state, more: cursor !== null, older: () => void load(cursor) };
}

/** Which answer field fills which contact attribute: a key per field (blank: not saved on the contact). */
function AttributeMapping({ flow, onSaved }: { flow: WhatsappFlow; onSaved: () => void }) {
  const [keys, setKeys] = useState<Record<string, string>>(flow.answer_attributes);
  const [saved, setSaved] = useState(false);
  const submit = useSubmit(async () => {
    const answer_attributes = Object.fromEntries(Object.entries(keys).filter(([, key]) => key.trim() !== ''));
    await action('set-whatsapp-flow-attributes', { whatsapp_flow_id: flow.id, answer_attributes });
    setSaved(true);
    onSaved();
  });
  const errors = fieldErrors(submit.error, { answer_attributes: t('flow-answers:mapping.title') });
  return (
    <section class="panel" aria-labelledby="mapping-title">
      <h2 id="mapping-title">{t('flow-answers:mapping.title')}</h2>
      <p class="muted">{t('flow-answers:mapping.hint')}</p>
      {flow.answer_fields.length === 0 ? (
        <p class="muted">{t('flow-answers:mapping.noFields')}</p>
      ) : (
        <form onSubmit={submit.onSubmit}>
          {flow.answer_fields.map((field) => (
            <TextField
              key={field.name}
              label={field.label}
              value={keys[field.name] ?? ''}
              pattern="[A-Za-z0-9_]+"
              maxLength={64}
              hint={t('flow-answers:mapping.fieldHint', { name: field.name })}
              onValue={(value) => {
                setSaved(false);
                submit.edited('answer_attributes');
                setKeys({ ...keys, [field.name]: value });
              }}
            />
          ))}
          <ErrorNote error={errors.note} />
          {errors.field('answer_attributes') && <p class="error">{errors.field('answer_attributes')}</p>}
          <button type="submit" class="primary" disabled={submit.busy}>
            {t('flow-answers:mapping.save')}
          </button>
          {saved && (
            <p class="muted" role="status">
              {t('flow-answers:mapping.saved')}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
