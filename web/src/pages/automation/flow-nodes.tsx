import { useId, useState } from 'preact/hooks';
import { t } from '../../i18n/i18n';
import {
  DurationField,
  formatDuration,
  parseDuration,
  ProblemList,
  storedVariables,
  TemplateFields,
  HeaderMediaField,
  headerMediaLabel,
  type FieldProblem,
  type TemplateSummary,
} from './common';
import type { PublicSchema } from '../../api/public';

/**
 * A node as the editor holds it while it is drafted: its type and whatever fields it has so far
 * (retype keeps those that fit the new type). The API checks it against the flow's schema on save.
 */
export type FlowNode = { id: string; type: NodeType } & Record<string, unknown>;

const NODE_TYPES = [
  'send_text',
  'send_template',
  'send_buttons',
  'send_list',
  'ask',
  'wait_for_reply',
  'branch',
  'add_tag',
  'remove_tag',
  'set_attribute',
  'webhook',
  'handoff',
  'end',
] as const satisfies readonly NodeType[];
/** A node type as the API's schema has it (nodeTypeName's words name each one, so a new type needs its words). */
export type NodeType = PublicSchema<'Flow'>['nodes'][number]['type'];

/** A node type (the API's value) in words; an unknown one as it is. */
export function nodeTypeName(type: string): string {
  const names: Record<NodeType, string> = {
    send_text: t('automation:nodes.types.send_text'),
    send_template: t('automation:nodes.types.send_template'),
    send_buttons: t('automation:nodes.types.send_buttons'),
    send_list: t('automation:nodes.types.send_list'),
    ask: t('automation:nodes.types.ask'),
    wait_for_reply: t('automation:nodes.types.wait_for_reply'),
    branch: t('automation:nodes.types.branch'),
    add_tag: t('automation:nodes.types.add_tag'),
    remove_tag: t('automation:nodes.types.remove_tag'),
    set_attribute: t('automation:nodes.types.set_attribute'),
    webhook: t('automation:nodes.types.webhook'),
    handoff: t('automation:nodes.types.handoff'),
    end: t('automation:nodes.types.end'),
  };
  return names[type as NodeType] ?? type;
}

type FieldKind = 'text' | 'textarea' | 'edge' | 'duration' | 'number' | 'select' | 'json';
interface FieldSpec {
  key: string;
  /** Its label and hint, in the language shown when they are drawn. */
  label: () => string;
  kind: FieldKind;
  /** A select's choices: the API's values, each with its words. */
  options?: () => Record<string, string>;
  hint?: () => string;
}

const next: FieldSpec = { key: 'next', label: () => t('automation:nodes.labels.next'), kind: 'edge' };
const onTimeout: FieldSpec = { key: 'on_timeout', label: () => t('automation:nodes.labels.on_timeout'), kind: 'edge' };
const timeout: FieldSpec = { key: 'timeout', label: () => t('automation:nodes.labels.timeout'), kind: 'duration' };
const text: FieldSpec = { key: 'text', label: () => t('automation:nodes.labels.text'), kind: 'textarea' };
const tag: FieldSpec = { key: 'tag', label: () => t('automation:tag'), kind: 'text' };

/** Each node type's own fields, besides id and type (buttons, branches and templates have their own editors). */
const FIELDS: Record<NodeType, FieldSpec[]> = {
  send_text: [text, next],
  send_template: [next],
  send_buttons: [text, next],
  send_list: [
    text,
    { key: 'button', label: () => t('automation:nodes.labels.button_label'), kind: 'text' },
    {
      key: 'sections',
      label: () => t('automation:nodes.labels.sections'),
      kind: 'json',
      hint: () => t('automation:nodes.sectionsHint'),
    },
    next,
  ],
  ask: [
    text,
    { key: 'attribute', label: () => t('automation:nodes.labels.attribute_reply'), kind: 'text' },
    {
      key: 'validate',
      label: () => t('automation:nodes.labels.validate'),
      kind: 'select',
      options: () => ({
        any: t('automation:nodes.validate.any'),
        email: t('automation:nodes.validate.email'),
        phone: t('automation:nodes.validate.phone'),
        number: t('automation:nodes.validate.number'),
      }),
    },
    timeout,
    { key: 'retries', label: () => t('automation:nodes.labels.retries'), kind: 'number' },
    { key: 'retry_text', label: () => t('automation:nodes.labels.retry_text'), kind: 'textarea' },
    next,
    onTimeout,
  ],
  wait_for_reply: [timeout, next, onTimeout],
  branch: [{ key: 'default', label: () => t('automation:nodes.labels.default'), kind: 'edge' }],
  add_tag: [tag, next],
  remove_tag: [tag, next],
  set_attribute: [
    { key: 'attribute', label: () => t('automation:nodes.labels.attribute'), kind: 'text' },
    { key: 'value', label: () => t('automation:nodes.labels.value'), kind: 'text' },
    next,
  ],
  webhook: [
    { key: 'url', label: () => t('automation:nodes.labels.url'), kind: 'text' },
    // HTTP methods are the same in every language.
    {
      key: 'method',
      label: () => t('automation:nodes.labels.method'),
      kind: 'select',
      options: () => ({ POST: 'POST', GET: 'GET' }),
    },
    { key: 'timeout_ms', label: () => t('automation:nodes.labels.timeout_ms'), kind: 'number' },
    { key: 'save_as', label: () => t('automation:nodes.labels.save_as'), kind: 'text' },
    next,
    { key: 'on_error', label: () => t('automation:nodes.labels.on_error'), kind: 'edge' },
  ],
  handoff: [{ key: 'note', label: () => t('automation:nodes.labels.note'), kind: 'textarea' }],
  end: [],
};

/** A node's fields by the labels its fieldset shows (problems name them relative to the node). */
function nodeLabels(node: FlowNode): Record<string, string> {
  const own = FIELDS[node.type].map((spec): [string, string] => [`/${spec.key}`, spec.label()]);
  const listed = (key: string) => (Array.isArray(node[key]) ? (node[key] as unknown[]) : []);
  const buttons = listed('buttons').flatMap((_, i): [string, string][] => [
    [`/buttons/${i}`, t('automation:nodes.labels.button', { n: i + 1 })],
    [`/buttons/${i}/id`, t('automation:nodes.buttonId', { n: i + 1 })],
    [`/buttons/${i}/title`, t('automation:nodes.buttonTitle', { n: i + 1 })],
  ]);
  const branches = listed('branches').flatMap((_, i): [string, string][] => [
    [`/branches/${i}`, t('automation:nodes.labels.branch', { n: i + 1 })],
    [`/branches/${i}/when`, t('automation:nodes.branchCondition', { n: i + 1 })],
    [`/branches/${i}/next`, t('automation:nodes.branchGoTo', { n: i + 1 })],
  ]);
  return {
    '/id': t('automation:nodes.labels.id'),
    '/type': t('automation:nodes.labels.type'),
    '/template_id': t('automation:template'),
    '/language': t('automation:language'),
    '/header_media_url': headerMediaLabel('image'),
    '/buttons': t('automation:nodes.labels.buttons'),
    '/branches': t('automation:nodes.labels.branches'),
    ...Object.fromEntries([...own, ...buttons, ...branches]),
  };
}

const TYPE_IN_MESSAGE = new RegExp(`\\ba (${NODE_TYPES.join('|')}) node\\b`, 'g');
/** The API names a node's type by its key ("is required for a send_text node"); the editor says its label. */
const typesInWords = (p: FieldProblem): FieldProblem => ({
  ...p,
  message: p.message.replace(TYPE_IN_MESSAGE, (_, type: NodeType) =>
    t('automation:nodes.typeInMessage', { type: nodeTypeName(type) }),
  ),
});

/** A send_template node's own fields (besides the header link). */
const TEMPLATE_KEYS = ['template_id', 'language', 'variables'];

/** Keys a node of this type keeps when its type changes. */
const KEEP: Record<NodeType, string[]> = Object.fromEntries(
  Object.entries(FIELDS).map(([type, fields]) => [
    type,
    [
      ...fields.map((f) => f.key),
      ...(type === 'send_template' ? [...TEMPLATE_KEYS, 'header_media_url'] : []),
      ...(type === 'send_buttons' ? ['buttons'] : []),
      ...(type === 'branch' ? ['branches'] : []),
    ],
  ]),
) as Record<NodeType, string[]>;

/** The node with a new type: the fields both types have are kept, the others dropped. */
export function retype(node: FlowNode, type: NodeType): FlowNode {
  const kept: FlowNode = { id: node.id, type };
  for (const key of KEEP[type]) if (node[key] !== undefined) kept[key] = node[key];
  if (type === 'send_buttons' && !Array.isArray(kept.buttons))
    kept.buttons = [{ id: 'yes', title: t('automation:nodes.newButton') }];
  if (type === 'branch' && !Array.isArray(kept.branches)) kept.branches = [{ when: { reply_equals: '' }, next: '' }];
  if (type === 'send_list' && kept.sections === undefined) kept.sections = [];
  return kept;
}

/** Every edge of a node: [the field it is in, the node it points at]. */
export function edgesOf(node: FlowNode): [string, string][] {
  const edges: [string, string][] = [];
  for (const key of ['next', 'on_timeout', 'on_error', 'default']) {
    if (typeof node[key] === 'string' && node[key]) edges.push([key, node[key]]);
  }
  if (Array.isArray(node.branches)) {
    (node.branches as { next?: string }[]).forEach((b, i) => b.next && edges.push([`branch ${i + 1}`, b.next]));
  }
  return edges;
}

/** The node with one of its edges (a key edgesOf names: "next", "branch 2"…) pointing at `target`. */
export function withEdge(node: FlowNode, edge: string, target: string): FlowNode {
  const branch = /^branch (\d+)$/.exec(edge);
  if (!branch) return { ...node, [edge]: target };
  const branches = (node.branches as { next?: string }[]).map((b, i) =>
    i === Number(branch[1]) - 1 ? { ...b, next: target } : b,
  );
  return { ...node, branches };
}

/** True when the node's type has a "next" it has not set yet: the diagram offers to add a node there. */
export const hasOpenNext = (node: FlowNode) => FIELDS[node.type].some((spec) => spec.key === 'next') && !node.next;

/** The nodes an edge may point at, as the pick-lists show them. */
export interface NodeTarget {
  id: string;
  label: string;
}

/**
 * The node as save-flow takes it: empty optional fields left out. Typed as the API's node without being
 * checked here: save-flow checks the definition whole and names each problem's field.
 */
export function cleanNode(node: FlowNode): PublicSchema<'FlowNode'> {
  const out: FlowNode = { id: node.id, type: node.type };
  for (const [key, value] of Object.entries(node)) {
    if (key === 'id' || key === 'type') continue;
    if (value === '' && key !== 'value' && key !== 'equals') continue;
    if (value === undefined || value === null) continue;
    out[key] = value;
  }
  return out as PublicSchema<'FlowNode'>;
}

/** One node's fieldset; highlighted, with its problems, when a save found some under it. */
export function NodeEditor(props: {
  node: FlowNode;
  index: number;
  isStart: boolean;
  problems: FieldProblem[];
  templates: TemplateSummary[];
  targets: NodeTarget[];
  /** The changed node, and the fields the change touched (their problems go); '' is the whole node. */
  onChange: (node: FlowNode, fields: string[]) => void;
  onRemove: () => void;
  onMakeStart: () => void;
}) {
  const id = useId();
  const { node, problems } = props;
  const set = (key: string, value: unknown) => props.onChange({ ...node, [key]: value }, [key]);
  const invalid = (key: string) => problems.some((p) => p.field === key || p.field.startsWith(`${key}/`));
  const label = t('automation:nodes.node', { name: node.id || String(props.index + 1) });
  return (
    <fieldset
      class={problems.length > 0 ? 'flow-node invalid' : 'flow-node'}
      id={`node-${props.index}`}
      data-node={node.id}
      aria-describedby={problems.length > 0 ? `${id}-problems` : undefined}
    >
      <legend>
        {label}
        {props.isStart && <span class="node-badge">{t('automation:nodes.startBadge')}</span>}
      </legend>
      <ProblemList problems={problems.map(typesInWords)} id={`${id}-problems`} labels={nodeLabels(node)} />
      <div class="node-head">
        <div class="field">
          <label for={`${id}-id`}>{t('automation:nodes.id', { node: label })}</label>
          <input
            id={`${id}-id`}
            value={node.id}
            maxLength={64}
            aria-invalid={invalid('id') ? true : undefined}
            onInput={(e) => set('id', e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={`${id}-type`}>{t('automation:nodes.type', { node: label })}</label>
          <select
            id={`${id}-type`}
            value={node.type}
            onChange={(e) => props.onChange(retype(node, e.currentTarget.value as NodeType), [''])}
          >
            {NODE_TYPES.map((type) => (
              <option key={type} value={type}>
                {nodeTypeName(type)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {node.type === 'send_template' && (
        <TemplateFields
          templates={props.templates}
          value={{
            template_id: (node.template_id as string | undefined) ?? '',
            language: (node.language as string | undefined) ?? '',
            variables: storedVariables(node.variables),
          }}
          onChange={(v) =>
            props.onChange(
              { ...node, template_id: v.template_id, language: v.language, variables: v.variables },
              TEMPLATE_KEYS,
            )
          }
          invalid={invalid}
        />
      )}
      {node.type === 'send_template' && (
        <HeaderMediaField
          template={props.templates.find((t) => t.id === node.template_id)}
          value={(node.header_media_url as string | undefined) ?? ''}
          onValue={(link) => set('header_media_url', link || undefined)}
          invalid={invalid('header_media_url')}
        />
      )}
      {FIELDS[node.type].map((spec) => (
        <NodeField
          key={spec.key}
          spec={spec}
          label={label}
          node={node}
          set={set}
          invalid={invalid(spec.key)}
          targets={props.targets}
        />
      ))}
      {node.type === 'send_buttons' && <ButtonsEditor node={node} label={label} set={set} />}
      {node.type === 'branch' && <BranchesEditor node={node} label={label} set={set} targets={props.targets} />}
      <div class="step-actions">
        {!props.isStart && (
          <button type="button" onClick={props.onMakeStart}>
            {t('automation:nodes.makeStart')}
            <span class="visually-hidden"> {label}</span>
          </button>
        )}
        <button type="button" class="danger" onClick={props.onRemove}>
          {t('automation:remove')}
          <span class="visually-hidden"> {label}</span>
        </button>
      </div>
    </fieldset>
  );
}

function NodeField(props: {
  spec: FieldSpec;
  label: string;
  node: FlowNode;
  set: (key: string, value: unknown) => void;
  invalid: boolean;
  targets: NodeTarget[];
}) {
  const id = useId();
  const { spec, node, set } = props;
  const raw = node[spec.key];
  const fieldLabel = t('automation:nodes.field', { node: props.label, field: spec.label().toLowerCase() });
  if (spec.kind === 'duration') {
    return <NodeDuration legend={fieldLabel} value={raw} onValue={(v) => set(spec.key, v)} invalid={props.invalid} />;
  }
  const hint = spec.hint?.();
  const common = {
    id,
    'aria-invalid': props.invalid ? true : undefined,
    'aria-describedby': hint ? `${id}-hint` : undefined,
  };
  let input;
  if (spec.kind === 'textarea') {
    input = (
      <textarea {...common} value={(raw as string) ?? ''} onInput={(e) => set(spec.key, e.currentTarget.value)} />
    );
  } else if (spec.kind === 'select') {
    input = (
      <select {...common} value={(raw as string) ?? ''} onChange={(e) => set(spec.key, e.currentTarget.value)}>
        <option value="">{t('automation:nodes.default')}</option>
        {Object.entries(spec.options!()).map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
    );
  } else if (spec.kind === 'number') {
    input = (
      <input
        {...common}
        type="number"
        value={typeof raw === 'number' ? String(raw) : ''}
        onInput={(e) => set(spec.key, e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
      />
    );
  } else if (spec.kind === 'edge') {
    input = (
      <TargetSelect
        {...common}
        value={(raw as string) ?? ''}
        targets={props.targets}
        onValue={(v) => set(spec.key, v)}
      />
    );
  } else if (spec.kind === 'json') {
    input = <JsonInput {...common} value={raw} onValue={(v) => set(spec.key, v)} />;
  } else {
    input = <input {...common} value={(raw as string) ?? ''} onInput={(e) => set(spec.key, e.currentTarget.value)} />;
  }
  return (
    <div class={spec.kind === 'edge' ? 'field edge' : 'field'}>
      <label for={id}>{fieldLabel}</label>
      {input}
      {hint && (
        <small class="hint" id={`${id}-hint`}>
          {hint}
        </small>
      )}
    </div>
  );
}

/** A node's timeout as a number and a unit; the draft is kept so the unit does not jump while typing. */
function NodeDuration(props: {
  legend: string;
  value: unknown;
  onValue: (iso: string | undefined) => void;
  invalid: boolean;
}) {
  const [draft, setDraft] = useState(() =>
    parseDuration(typeof props.value === 'string' ? props.value : undefined, { amount: '', unit: 'H' }),
  );
  return (
    <DurationField
      legend={props.legend}
      value={draft}
      invalid={props.invalid}
      onChange={(next) => {
        setDraft(next);
        props.onValue(formatDuration(next));
      }}
    />
  );
}

/** Where an edge goes: one of the flow's nodes, by id and type (never a typed id). */
export function TargetSelect(props: {
  id: string;
  value: string;
  targets: NodeTarget[];
  onValue: (id: string) => void;
  'aria-invalid'?: boolean;
  /** The empty choice's text. */
  empty?: string;
}) {
  const { value, targets, onValue, empty, ...rest } = props;
  const known = value === '' || targets.some((t) => t.id === value);
  return (
    <select {...rest} value={value} onChange={(e) => onValue(e.currentTarget.value)}>
      <option value="">{empty ?? t('automation:nodes.nowhere')}</option>
      {!known && <option value={value}>{t('automation:nodes.noSuchNode', { id: value })}</option>}
      {targets.map((t) => (
        <option key={t.id} value={t.id}>
          {t.label}
        </option>
      ))}
    </select>
  );
}

/** JSON typed as text: kept as text until it parses, so a half-typed value is not lost. */
function JsonInput(props: { id: string; value: unknown; onValue: (value: unknown) => void }) {
  const { value, onValue, ...rest } = props;
  const shown = typeof value === 'string' ? value : JSON.stringify(value ?? [], null, 1);
  return (
    <textarea
      {...rest}
      class="code"
      value={shown}
      onInput={(e) => {
        const typed = e.currentTarget.value;
        try {
          onValue(JSON.parse(typed));
        } catch {
          onValue(typed);
        }
      }}
    />
  );
}

interface Button {
  id: string;
  title: string;
}

function ButtonsEditor({ node, label, set }: { node: FlowNode; label: string; set: (k: string, v: unknown) => void }) {
  const buttons = (node.buttons as Button[] | undefined) ?? [];
  const change = (i: number, fields: Partial<Button>) =>
    set(
      'buttons',
      buttons.map((b, j) => (j === i ? { ...b, ...fields } : b)),
    );
  return (
    <fieldset class="group">
      <legend>{t('automation:nodes.buttons', { node: label })}</legend>
      {buttons.map((b, i) => (
        <div class="inline-form" key={i}>
          <PlainField
            label={t('automation:nodes.buttonId', { n: i + 1 })}
            value={b.id}
            onValue={(v) => change(i, { id: v })}
          />
          <PlainField
            label={t('automation:nodes.buttonTitle', { n: i + 1 })}
            value={b.title}
            onValue={(v) => change(i, { title: v })}
          />
          <button
            type="button"
            onClick={() =>
              set(
                'buttons',
                buttons.filter((_, j) => j !== i),
              )
            }
          >
            {t('automation:nodes.removeButton', { n: i + 1 })}
          </button>
        </div>
      ))}
      {buttons.length < 3 && (
        <button type="button" onClick={() => set('buttons', [...buttons, { id: '', title: '' }])}>
          {t('automation:nodes.addButton')}
        </button>
      )}
    </fieldset>
  );
}

const CONDITIONS = [
  'reply_equals',
  'reply_contains',
  'button_id',
  'has_tag',
  'attribute_equals',
  'attribute_exists',
] as const;
type ConditionKind = (typeof CONDITIONS)[number];

/** A branch's kinds of condition, each with its words. */
const conditionNames = (): Record<ConditionKind, string> => ({
  reply_equals: t('automation:nodes.conditions.reply_equals'),
  reply_contains: t('automation:nodes.conditions.reply_contains'),
  button_id: t('automation:nodes.conditions.button_id'),
  has_tag: t('automation:nodes.conditions.has_tag'),
  attribute_equals: t('automation:nodes.conditions.attribute_equals'),
  attribute_exists: t('automation:nodes.conditions.attribute_exists'),
});

interface Branch {
  when: Record<string, unknown>;
  next: string;
}

function conditionKind(when: Record<string, unknown>): ConditionKind {
  if ('attribute' in when) return 'exists' in when ? 'attribute_exists' : 'attribute_equals';
  return CONDITIONS.find((k) => k in when) ?? 'reply_equals';
}

function conditionOf(kind: ConditionKind, value: string, attribute: string): Record<string, unknown> {
  if (kind === 'attribute_equals') return { attribute, equals: value };
  if (kind === 'attribute_exists') return { attribute, exists: value !== 'false' };
  return { [kind]: value };
}

function BranchesEditor(props: {
  node: FlowNode;
  label: string;
  set: (k: string, v: unknown) => void;
  targets: NodeTarget[];
}) {
  const { node, label, set } = props;
  const branches = (node.branches as Branch[] | undefined) ?? [];
  const change = (i: number, branch: Branch) =>
    set(
      'branches',
      branches.map((b, j) => (j === i ? branch : b)),
    );
  return (
    <fieldset class="group">
      <legend>{t('automation:nodes.branches', { node: label })}</legend>
      {branches.map((b, i) => {
        const kind = conditionKind(b.when);
        const attribute = (b.when.attribute as string | undefined) ?? '';
        const value =
          kind === 'attribute_exists'
            ? String(b.when.exists !== false)
            : kind === 'attribute_equals'
              ? ((b.when.equals as string | undefined) ?? '')
              : ((b.when[kind] as string | undefined) ?? '');
        const n = i + 1;
        return (
          <div class="inline-form branch" key={i}>
            <PlainSelect
              label={t('automation:nodes.branchCondition', { n })}
              value={kind}
              options={conditionNames()}
              onValue={(k) => change(i, { ...b, when: conditionOf(k as ConditionKind, '', attribute) })}
            />
            {kind.startsWith('attribute') && (
              <PlainField
                label={t('automation:nodes.branchAttribute', { n })}
                value={attribute}
                onValue={(v) => change(i, { ...b, when: conditionOf(kind, value, v) })}
              />
            )}
            {kind === 'attribute_exists' ? (
              <PlainSelect
                label={t('automation:nodes.branchIsSet', { n })}
                value={value}
                options={{ true: t('automation:nodes.yes'), false: t('automation:nodes.no') }}
                onValue={(v) => change(i, { ...b, when: conditionOf(kind, v, attribute) })}
              />
            ) : (
              <PlainField
                label={t('automation:nodes.branchValue', { n })}
                value={value}
                onValue={(v) => change(i, { ...b, when: conditionOf(kind, v, attribute) })}
              />
            )}
            <BranchTarget
              label={t('automation:nodes.branchGoTo', { n })}
              value={b.next}
              targets={props.targets}
              onValue={(v) => change(i, { ...b, next: v })}
            />
            <button
              type="button"
              onClick={() =>
                set(
                  'branches',
                  branches.filter((_, j) => j !== i),
                )
              }
            >
              {t('automation:nodes.removeBranch', { n })}
            </button>
          </div>
        );
      })}
      <button type="button" onClick={() => set('branches', [...branches, { when: { reply_equals: '' }, next: '' }])}>
        {t('automation:nodes.addBranch')}
      </button>
    </fieldset>
  );
}

function PlainField(props: { label: string; value: string; onValue: (v: string) => void }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input id={id} value={props.value} onInput={(e) => props.onValue(e.currentTarget.value)} />
    </div>
  );
}

function BranchTarget(props: { label: string; value: string; targets: NodeTarget[]; onValue: (v: string) => void }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <TargetSelect id={id} value={props.value} targets={props.targets} onValue={props.onValue} />
    </div>
  );
}

function PlainSelect(props: {
  label: string;
  value: string;
  options: Record<string, string>;
  onValue: (v: string) => void;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onValue(e.currentTarget.value)}>
        {Object.entries(props.options).map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
