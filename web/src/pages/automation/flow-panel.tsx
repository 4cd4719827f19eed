import { useId, useState } from 'preact/hooks';
import { t } from '../../i18n/i18n';
import { HeaderMediaField, storedVariables, TemplateFields, type TemplateSummary } from './common';
import { Conditions } from './flow-conditions';
import { exitName } from './flow-exits';
import {
  choicesOf,
  dropRoutesOfGoneChoices,
  exitsOf,
  nameOf,
  renameChoice,
  type Card,
  type Choice,
} from './flow-model';
import { ChoiceRows } from './flow-choices';
import {
  FIELDS,
  NodeField,
  nodeTypeName,
  PlainField,
  TargetSelect,
  WAIT_TIMEOUT,
  type FlowNode,
  type NodeTarget,
} from './flow-nodes';
import { MessagePreview } from './flow-preview';
import { WhatsappFlowFields } from './flow-whatsapp-flow';
import type { CardProblem } from './flow-problems';

const TEMPLATE_KEYS = ['template_id', 'language', 'variables'];
const HEADER_KEYS = ['header_media_url'];
const BUTTONS_KEYS = ['buttons'];
const SECTIONS_KEYS = ['sections'];
const WAIT_KEYS = ['wait/timeout'];

/** What the panel tells the builder: the changed card and the fields the change touched (their problems go). */
type CardChange = (card: Card, fields: string[]) => void;

/**
 * The selected node's own form beside the canvas: its name, its fields, its buttons or rows, where each
 * of its exits goes (the keyboard's way to connect), a preview of the message, and its problems.
 */
export function NodePanel(props: {
  card: Card;
  isStart: boolean;
  problems: CardProblem[];
  targets: NodeTarget[];
  templates: TemplateSummary[];
  variables: string[];
  onChange: CardChange;
  onConnect: (exit: string, target: string) => void;
  onRename: (title: string) => void;
  onMakeStart: () => void;
  onRemove: () => void;
}) {
  const id = useId();
  const { card, problems } = props;
  const { node } = card;
  const invalid = (field: string) => problems.some((p) => p.field === field || p.field.startsWith(`${field}/`));
  const setNode = (key: string, value: unknown) => props.onChange({ ...card, node: { ...node, [key]: value } }, [key]);
  return (
    <section class="node-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        {nameOf(node)} <span class="muted">· {nodeTypeName(node.type)}</span>
        {props.isStart && <span class="node-badge">{t('automation:builder.start')}</span>}
      </h2>
      {problems.length > 0 && (
        <div class="problem-list error" role="alert">
          <ul>
            {problems.map((p) => (
              <li key={p.message}>{p.message}</li>
            ))}
          </ul>
        </div>
      )}
      <TitleField node={node} onTitle={props.onRename} />
      {node.type === 'ai_assistant' && <p class="hint">{t('automation:builder.aiAssistantHint')}</p>}
      {node.type === 'send_template' && <TemplateNode {...props} invalid={invalid} />}
      {node.type === 'send_whatsapp_flow' && (
        <WhatsappFlowFields card={card} onChange={props.onChange} invalid={invalid} />
      )}
      {FIELDS[node.type].map((spec) => (
        <NodeField
          key={spec.key}
          spec={spec}
          value={node[spec.key]}
          onValue={(value) => setNode(spec.key, value)}
          invalid={invalid(spec.key)}
          variables={props.variables}
        />
      ))}
      {node.type === 'send_buttons' && <ButtonRows card={card} onChange={props.onChange} invalid={invalid} />}
      {node.type === 'send_list' && <ListSections card={card} onChange={props.onChange} invalid={invalid} />}
      {node.type === 'branch' && <Conditions node={node} set={setNode} invalid={invalid} />}
      {card.wait && (
        <NodeField
          spec={WAIT_TIMEOUT}
          value={card.wait.timeout}
          onValue={(timeout) => props.onChange({ ...card, wait: { ...card.wait!, timeout } }, WAIT_KEYS)}
          invalid={invalid('wait/timeout')}
          variables={[]}
        />
      )}
      <MessagePreview node={node} variables={props.variables} />
      <ExitTargets card={card} targets={props.targets} onConnect={props.onConnect} invalid={invalid} />
      <div class="step-actions">
        {!props.isStart && (
          <button type="button" onClick={props.onMakeStart}>
            {t('automation:builder.makeStart')}
          </button>
        )}
        <button type="button" class="danger" onClick={props.onRemove}>
          {t('automation:builder.remove')}
        </button>
      </div>
    </section>
  );
}

/**
 * The node's title, in any language, from which its id is made (see idFromTitle). What is typed stays as
 * typed while the panel is open; the hint says the id it is saved under.
 */
function TitleField(props: { node: FlowNode; onTitle: (title: string) => void }) {
  const [draft, setDraft] = useState(() => nameOf(props.node));
  const fieldId = useId();
  return (
    <div class="field">
      <label for={fieldId}>{t('automation:builder.nodeName')}</label>
      <input
        id={fieldId}
        value={draft}
        maxLength={200}
        aria-describedby={`${fieldId}-hint`}
        onInput={(e) => {
          setDraft(e.currentTarget.value);
          props.onTitle(e.currentTarget.value);
        }}
      />
      <small class="hint" id={`${fieldId}-hint`}>
        {t('automation:builder.savedAs', { name: props.node.id })}
      </small>
    </div>
  );
}

function TemplateNode(props: {
  card: Card;
  templates: TemplateSummary[];
  onChange: CardChange;
  invalid: (field: string) => boolean;
}) {
  const { card, invalid } = props;
  const { node } = card;
  const change = (fields: Partial<FlowNode>, keys: string[]) =>
    props.onChange({ ...card, node: { ...node, ...fields } }, keys);
  return (
    <>
      <TemplateFields
        templates={props.templates}
        value={{
          template_id: (node.template_id as string | undefined) ?? '',
          language: (node.language as string | undefined) ?? '',
          variables: storedVariables(node.variables),
        }}
        onChange={(v) => change({ ...v }, TEMPLATE_KEYS)}
        invalid={invalid}
      />
      <HeaderMediaField
        template={props.templates.find((template) => template.id === node.template_id)}
        value={(node.header_media_url as string | undefined) ?? ''}
        onValue={(link) => change({ header_media_url: link || undefined }, HEADER_KEYS)}
        invalid={invalid('header_media_url')}
      />
    </>
  );
}

/** The node's reply buttons as rows of titles (at most 3, Meta's limit). */
function ButtonRows(props: { card: Card; onChange: CardChange; invalid: (field: string) => boolean }) {
  const { card } = props;
  return (
    <fieldset class="group">
      <legend>{t('automation:nodes.labels.buttons')}</legend>
      <ChoiceRows
        choices={choicesOf(card.node)}
        rowLabel={(n) => t('automation:builder.button', { n })}
        removeLabel={(n) => t('automation:nodes.removeButton', { n })}
        fallbackId={(n) => `button_${n}`}
        max={3}
        maxTitle={20}
        addLabel={t('automation:nodes.addButton')}
        newTitle={(n) => t('automation:builder.newChoice', { n })}
        invalid={(i) => props.invalid(`buttons/${i}`)}
        onChange={(buttons, renamed) =>
          props.onChange(withChoices(card, { ...card.node, buttons }, renamed), BUTTONS_KEYS)
        }
      />
    </fieldset>
  );
}

interface Section {
  title: string;
  rows: Choice[];
}

/** A list's sections, each a title and its rows; at most 10 rows in all (WhatsApp's limit). */
function ListSections(props: { card: Card; onChange: CardChange; invalid: (field: string) => boolean }) {
  const { card } = props;
  const sections = (card.node.sections as Section[] | undefined) ?? [];
  const rowCount = sections.reduce((sum, s) => sum + s.rows.length, 0);
  const change = (next: Section[], renamed?: [string, string]) =>
    props.onChange(withChoices(card, { ...card.node, sections: next }, renamed), SECTIONS_KEYS);
  const otherIds = (i: number) => new Set(sections.flatMap((s, j) => (j === i ? [] : s.rows.map((r) => r.id))));
  return (
    <>
      {sections.map((section, i) => (
        <fieldset class="group" key={i}>
          <legend>{t('automation:builder.section', { n: i + 1 })}</legend>
          <PlainField
            label={t('automation:builder.sectionTitle', { n: i + 1 })}
            value={section.title}
            maxLength={24}
            invalid={props.invalid(`sections/${i}/title`)}
            onValue={(title) => change(sections.map((s, j) => (j === i ? { ...s, title } : s)))}
          />
          <ChoiceRows
            choices={section.rows}
            rowLabel={(n) => t('automation:builder.row', { n })}
            removeLabel={(n) => t('automation:builder.removeRow', { n })}
            fallbackId={(n) => `row_${i + 1}_${n}`}
            max={section.rows.length + 10 - rowCount}
            maxTitle={24}
            addLabel={t('automation:builder.addRow')}
            newTitle={(n) => t('automation:builder.newChoice', { n })}
            otherIds={otherIds(i)}
            withDescription
            invalid={(j) => props.invalid(`sections/${i}/rows/${j}`)}
            onChange={(rows, renamed) =>
              change(
                sections.map((s, j) => (j === i ? { ...s, rows } : s)),
                renamed,
              )
            }
          />
          {sections.length > 1 && (
            <button type="button" class="link" onClick={() => change(sections.filter((_, j) => j !== i))}>
              {t('automation:builder.removeSection', { n: i + 1 })}
            </button>
          )}
        </fieldset>
      ))}
      {rowCount < 10 && (
        <button
          type="button"
          onClick={() =>
            change([
              ...sections,
              {
                title: t('automation:builder.newSection'),
                rows: [{ id: `row_${sections.length + 1}_1`, title: t('automation:builder.newChoice', { n: 1 }) }],
              },
            ])
          }
        >
          {t('automation:builder.addSection')}
        </button>
      )}
    </>
  );
}

/** The card with its message's choices changed: the routes of a renamed choice follow it, a removed one's go. */
function withChoices(card: Card, node: FlowNode, renamed?: [string, string]): Card {
  const changed = { ...card, node };
  return dropRoutesOfGoneChoices(renamed ? renameChoice(changed, ...renamed) : changed);
}

/** Where each exit goes, as a pick-list of the flow's nodes: connecting without dragging. */
function ExitTargets(props: {
  card: Card;
  targets: NodeTarget[];
  onConnect: (exit: string, target: string) => void;
  invalid: (field: string) => boolean;
}) {
  const id = useId();
  const exits = exitsOf(props.card);
  if (exits.length === 0) return null;
  return (
    <fieldset class="group exits">
      <legend>{t('automation:builder.goesTo')}</legend>
      {exits.map((exit, i) => (
        <div class="field" key={exit.key}>
          <label for={`${id}-${i}`}>{exitName(props.card, exit.key)}</label>
          <TargetSelect
            id={`${id}-${i}`}
            value={exit.target}
            targets={props.targets}
            onValue={(target) => props.onConnect(exit.key, target)}
            aria-invalid={props.invalid(`exit:${exit.key}`) ? true : undefined}
            empty={exit.required ? t('automation:builder.chooseNode') : t('automation:builder.endsHere')}
          />
        </div>
      ))}
    </fieldset>
  );
}
