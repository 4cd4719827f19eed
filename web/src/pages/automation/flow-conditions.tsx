import { t } from '../../i18n/i18n';
import { conditionKind, conditionNames, type ConditionKind } from './flow-exits';
import { textOf } from './flow-model';
import { PlainField, PlainSelect, type FlowNode } from './flow-nodes';

interface Branch {
  when: Record<string, unknown>;
  next: string;
}

/** A branch's conditions, tested in order; where each one goes is among the exits below. */
export function Conditions(props: {
  node: FlowNode;
  set: (key: string, value: unknown) => void;
  invalid: (f: string) => boolean;
}) {
  const branches = (props.node.branches as Branch[] | undefined) ?? [];
  const change = (i: number, when: Record<string, unknown>) =>
    props.set(
      'branches',
      branches.map((b, j) => (j === i ? { ...b, when } : b)),
    );
  return (
    <fieldset class="group">
      <legend>{t('automation:builder.conditions')}</legend>
      <ol class="choice-rows">
        {branches.map((b, i) => (
          <li key={i}>
            <ConditionRow
              n={i + 1}
              when={b.when}
              onWhen={(when) => change(i, when)}
              invalid={props.invalid(`branches/${i}`)}
            />
            <button
              type="button"
              class="link"
              disabled={branches.length === 1}
              onClick={() =>
                props.set(
                  'branches',
                  branches.filter((_, j) => j !== i),
                )
              }
            >
              {t('automation:builder.removeCondition', { n: i + 1 })}
            </button>
          </li>
        ))}
      </ol>
      {branches.length < 20 && (
        <button type="button" onClick={() => props.set('branches', [...branches, newBranch()])}>
          {t('automation:builder.addCondition')}
        </button>
      )}
    </fieldset>
  );
}

/** A new condition is complete as it comes (a reply that contains "yes"), so it never blocks a save. */
export const newBranch = (): Branch => ({ when: { reply_contains: t('automation:nodes.yes') }, next: '' });

/** A condition of this kind; `attribute` is the attribute or the answer field it is about. */
function conditionOf(kind: ConditionKind, value: string, attribute: string): Record<string, unknown> {
  if (kind === 'attribute_equals') return { attribute, equals: value };
  if (kind === 'answer_field') return { answer_field: attribute, equals: value };
  if (kind === 'attribute_exists') return { attribute, exists: value !== 'false' };
  return { [kind]: value };
}

function ConditionRow(props: {
  n: number;
  when: Record<string, unknown>;
  onWhen: (when: Record<string, unknown>) => void;
  invalid: boolean;
}) {
  const { n, when } = props;
  const kind = conditionKind(when);
  const attribute = textOf(kind === 'answer_field' ? when.answer_field : when.attribute);
  const value =
    kind === 'attribute_exists'
      ? String(when.exists !== false)
      : textOf(kind === 'attribute_equals' || kind === 'answer_field' ? when.equals : when[kind]);
  return (
    <div class="inline-form">
      <PlainSelect
        label={t('automation:builder.condition', { n })}
        value={kind}
        options={conditionNames()}
        onValue={(k) => props.onWhen(conditionOf(k as ConditionKind, value, attribute))}
      />
      {(kind.startsWith('attribute') || kind === 'answer_field') && (
        <PlainField
          label={
            kind === 'answer_field'
              ? t('automation:whatsappFlowNode.conditionField', { n })
              : t('automation:builder.conditionAttribute', { n })
          }
          value={attribute}
          onValue={(v) => props.onWhen(conditionOf(kind, value, v))}
        />
      )}
      {kind === 'attribute_exists' ? (
        <PlainSelect
          label={t('automation:builder.conditionIsSet', { n })}
          value={value}
          options={{ true: t('automation:nodes.yes'), false: t('automation:nodes.no') }}
          onValue={(v) => props.onWhen(conditionOf(kind, v, attribute))}
        />
      ) : (
        <PlainField
          label={t('automation:builder.conditionValue', { n })}
          value={value}
          invalid={props.invalid}
          onValue={(v) => props.onWhen(conditionOf(kind, v, attribute))}
        />
      )}
    </div>
  );
}
