import { useId } from 'preact/hooks';
import { action, type ActionAnswer } from '../../api/client';
import { t } from '../../i18n/i18n';
import { ErrorNote, useAsync } from '../../ui';
import type { Card } from './flow-model';
import { PlainField } from './flow-nodes';

export type WhatsappFlow = ActionAnswer<'list-whatsapp-flows'>[number];

export interface SavedAnswer {
  field: string;
  attribute: string;
}

/**
 * The form of a "Send a WhatsApp Flow" node beside its texts: which published Flow it sends (picked from
 * the account's list, never typed), the fields of that Flow's answer, and which of them the contact keeps.
 */
export function WhatsappFlowFields(props: {
  card: Card;
  onChange: (card: Card, fields: string[]) => void;
  invalid: (field: string) => boolean;
}) {
  const published = usePublishedFlows();
  const { card } = props;
  const chosen = typeof card.node.whatsapp_flow_id === 'string' ? card.node.whatsapp_flow_id : '';
  const flow = published.data?.find((f) => f.id === chosen);
  const set = (key: string, value: unknown) => props.onChange({ ...card, node: { ...card.node, [key]: value } }, [key]);
  return (
    <>
      <ErrorNote error={published.error} />
      <FlowSelect
        label={t('automation:whatsappFlowNode.flow')}
        flows={published.data ?? []}
        loading={published.loading}
        value={chosen}
        invalid={props.invalid('whatsapp_flow_id')}
        onValue={(id) => set('whatsapp_flow_id', id)}
      />
      {flow && flow.answer_fields.length > 0 && (
        <p class="hint">
          {t('automation:whatsappFlowNode.fields', { fields: flow.answer_fields.map((f) => f.name).join(', ') })}
        </p>
      )}
      <SavedAnswers
        rows={(card.node.save_answers as SavedAnswer[] | undefined) ?? []}
        invalid={props.invalid}
        onRows={(rows) => set('save_answers', rows.length > 0 ? rows : undefined)}
      />
    </>
  );
}

/** The account's published WhatsApp Flows: those a flow or a sequence can send. */
export const usePublishedFlows = () => useAsync(() => action('list-whatsapp-flows', { status: 'PUBLISHED' }), []);

/** The published Flows by name; one the node names that is no longer published stays, marked so. */
export function FlowSelect(props: {
  label: string;
  flows: WhatsappFlow[];
  loading: boolean;
  value: string;
  invalid: boolean;
  onValue: (id: string) => void;
}) {
  const id = useId();
  const known = props.value === '' || props.flows.some((f) => f.id === props.value);
  const none = !props.loading && props.flows.length === 0;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        aria-invalid={props.invalid ? true : undefined}
        aria-describedby={none ? `${id}-hint` : undefined}
        onChange={(e) => props.onValue(e.currentTarget.value)}
      >
        <option value="">{t('automation:whatsappFlowNode.chooseFlow')}</option>
        {!known && <option value={props.value}>{t('automation:whatsappFlowNode.notPublished')}</option>}
        {props.flows.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </select>
      {none && (
        <small class="hint" id={`${id}-hint`}>
          {t('automation:whatsappFlowNode.noneHint')}
        </small>
      )}
    </div>
  );
}

/** Answer fields kept on the contact: each a field of the answer and the attribute that receives it. */
function SavedAnswers(props: {
  rows: SavedAnswer[];
  invalid: (field: string) => boolean;
  onRows: (rows: SavedAnswer[]) => void;
}) {
  const { rows } = props;
  const change = (i: number, row: Partial<SavedAnswer>) =>
    props.onRows(rows.map((r, j) => (j === i ? { ...r, ...row } : r)));
  return (
    <fieldset class="group">
      <legend>{t('automation:whatsappFlowNode.saveAnswers')}</legend>
      <ol class="choice-rows">
        {rows.map((row, i) => (
          <li key={i} class="inline-form">
            <PlainField
              label={t('automation:whatsappFlowNode.answerField', { n: i + 1 })}
              value={row.field}
              maxLength={80}
              invalid={props.invalid(`save_answers/${i}/field`)}
              onValue={(field) => change(i, { field })}
            />
            <PlainField
              label={t('automation:whatsappFlowNode.attribute', { n: i + 1 })}
              value={row.attribute}
              maxLength={64}
              invalid={props.invalid(`save_answers/${i}/attribute`)}
              onValue={(attribute) => change(i, { attribute })}
            />
            <button type="button" class="link" onClick={() => props.onRows(rows.filter((_, j) => j !== i))}>
              {t('automation:whatsappFlowNode.removeSaved', { n: i + 1 })}
            </button>
          </li>
        ))}
      </ol>
      {rows.length < 20 && (
        <button type="button" onClick={() => props.onRows([...rows, { field: '', attribute: '' }])}>
          {t('automation:whatsappFlowNode.addSaved')}
        </button>
      )}
    </fieldset>
  );
}
