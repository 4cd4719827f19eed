import { useId, useState } from 'preact/hooks';
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

export type FlowNode = { id: string; type: NodeType } & Record<string, unknown>;

export const NODE_TYPES = {
  send_text: 'Send a text',
  send_template: 'Send a template',
  send_buttons: 'Send buttons',
  send_list: 'Send a list',
  ask: 'Ask a question',
  wait_for_reply: 'Wait for a reply',
  branch: 'Branch',
  add_tag: 'Add a tag',
  remove_tag: 'Remove a tag',
  set_attribute: 'Set an attribute',
  webhook: 'Call a webhook',
  handoff: 'Hand off to a person',
  end: 'End',
} as const;
export type NodeType = keyof typeof NODE_TYPES;

type FieldKind = 'text' | 'textarea' | 'edge' | 'duration' | 'number' | 'select' | 'json';
interface FieldSpec {
  key: string;
  label: string;
  kind: FieldKind;
  options?: string[];
  hint?: string;
}

const next: FieldSpec = { key: 'next', label: 'Next node', kind: 'edge' };
const onTimeout: FieldSpec = { key: 'on_timeout', label: 'On timeout, go to', kind: 'edge' };
const timeout: FieldSpec = { key: 'timeout', label: 'Timeout', kind: 'duration' };
const text: FieldSpec = { key: 'text', label: 'Text', kind: 'textarea' };

/** Each node type's own fields, besides id and type (buttons, branches and templates have their own editors). */
const FIELDS: Record<NodeType, FieldSpec[]> = {
  send_text: [text, next],
  send_template: [next],
  send_buttons: [text, next],
  send_list: [
    text,
    { key: 'button', label: 'List button label', kind: 'text' },
    {
      key: 'sections',
      label: 'Sections (JSON)',
      kind: 'json',
      hint: '[{"title": "…", "rows": [{"id": "…", "title": "…"}]}]; at most 10 rows',
    },
    next,
  ],
  ask: [
    text,
    { key: 'attribute', label: 'Save the reply as attribute', kind: 'text' },
    { key: 'validate', label: 'Accept', kind: 'select', options: ['any', 'email', 'phone', 'number'] },
    timeout,
    { key: 'retries', label: 'Retries', kind: 'number' },
    { key: 'retry_text', label: 'Retry text', kind: 'textarea' },
    next,
    onTimeout,
  ],
  wait_for_reply: [timeout, next, onTimeout],
  branch: [{ key: 'default', label: 'Otherwise, go to', kind: 'edge' }],
  add_tag: [{ key: 'tag', label: 'Tag', kind: 'text' }, next],
  remove_tag: [{ key: 'tag', label: 'Tag', kind: 'text' }, next],
  set_attribute: [
    { key: 'attribute', label: 'Attribute', kind: 'text' },
    { key: 'value', label: 'Value', kind: 'text' },
    next,
  ],
  webhook: [
    { key: 'url', label: 'URL', kind: 'text' },
    { key: 'method', label: 'Method', kind: 'select', options: ['POST', 'GET'] },
    { key: 'timeout_ms', label: 'Timeout (ms)', kind: 'number' },
    { key: 'save_as', label: 'Save the response as attribute', kind: 'text' },
    next,
    { key: 'on_error', label: 'On error, go to', kind: 'edge' },
  ],
  handoff: [{ key: 'note', label: 'Note for the agent', kind: 'textarea' }],
  end: [],
};

/** A node's fields by the labels its fieldset shows (problems name them relative to the node). */
function nodeLabels(node: FlowNode): Record<string, string> {
  const own = FIELDS[node.type].map((spec): [string, string] => [`/${spec.key}`, spec.label]);
  const listed = (key: string) => (Array.isArray(node[key]) ? (node[key] as unknown[]) : []);
  const buttons = listed('buttons').flatMap((_, i): [string, string][] => [
    [`/buttons/${i}`, `Button ${i + 1}`],
    [`/buttons/${i}/id`, `Button ${i + 1} id`],
    [`/buttons/${i}/title`, `Button ${i + 1} title`],
  ]);
  const branches = listed('branches').flatMap((_, i): [string, string][] => [
    [`/branches/${i}`, `Branch ${i + 1}`],
    [`/branches/${i}/when`, `Branch ${i + 1} condition`],
    [`/branches/${i}/next`, `Branch ${i + 1} go to`],
  ]);
  return {
    '/id': 'Id',
    '/type': 'Type',
    '/template_id': 'Template',
    '/language': 'Language',
    '/header_media_url': headerMediaLabel('image'),
    '/buttons': 'Buttons',
    '/branches': 'Branches',
    ...Object.fromEntries([...own, ...buttons, ...branches]),
  };
}

const TYPE_IN_MESSAGE = new RegExp(`\\ba (${Object.keys(NODE_TYPES).join('|')}) node\\b`, 'g');
/** The API names a node's type by its key ("is required for a send_text node"); the editor says its label. */
const typesInWords = (p: FieldProblem): FieldProblem => ({
  ...p,
  message: p.message.replace(TYPE_IN_MESSAGE, (_, type: NodeType) => `a “${NODE_TYPES[type]}” node`),
});

/** Keys a node of this type keeps when its type changes. */
const KEEP: Record<NodeType, string[]> = Object.fromEntries(
  Object.entries(FIELDS).map(([type, fields]) => [
    type,
    [
      ...fields.map((f) => f.key),
      ...(type === 'send_template' ? ['template_id', 'language', 'variables', 'header_media_url'] : []),
      ...(type === 'send_buttons' ? ['buttons'] : []),
      ...(type === 'branch' ? ['branches'] : []),
    ],
  ]),
) as Record<NodeType, string[]>;

/** The node with a new type: the fields both types have are kept, the others dropped. */
export function retype(node: FlowNode, type: NodeType): FlowNode {
  const kept: FlowNode = { id: node.id, type };
  for (const key of KEEP[type]) if (node[key] !== undefined) kept[key] = node[key];
  if (type === 'send_buttons' && !Array.isArray(kept.buttons)) kept.buttons = [{ id: 'yes', title: 'Yes' }];
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

/** The node as save-flow takes it: empty optional fields left out. */
export function cleanNode(node: FlowNode): FlowNode {
  const out: FlowNode = { id: node.id, type: node.type };
  for (const [key, value] of Object.entries(node)) {
    if (key === 'id' || key === 'type') continue;
    if (value === '' && key !== 'value' && key !== 'equals') continue;
    if (value === undefined || value === null) continue;
    out[key] = value;
  }
  return out;
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
  const label = `Node ${node.id || props.index + 1}`;
  return (
    <fieldset
      class={problems.length > 0 ? 'flow-node invalid' : 'flow-node'}
      id={`node-${props.index}`}
      data-node={node.id}
      aria-describedby={problems.length > 0 ? `${id}-problems` : undefined}
    >
      <legend>
        {label}
        {props.isStart && <span class="node-badge">start</span>}
      </legend>
      <ProblemList problems={problems.map(typesInWords)} id={`${id}-problems`} labels={nodeLabels(node)} />
      <div class="node-head">
        <div class="field">
          <label for={`${id}-id`}>{`${label} id`}</label>
          <input
            id={`${id}-id`}
            value={node.id}
            maxLength={64}
            aria-invalid={invalid('id') ? true : undefined}
            onInput={(e) => set('id', e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={`${id}-type`}>{`${label} type`}</label>
          <select
            id={`${id}-type`}
            value={node.type}
            onChange={(e) => props.onChange(retype(node, e.currentTarget.value as NodeType), [''])}
          >
            {(Object.keys(NODE_TYPES) as NodeType[]).map((type) => (
              <option key={type} value={type}>
                {NODE_TYPES[type]}
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
            props.onChange({ ...node, template_id: v.template_id, language: v.language, variables: v.variables }, [
              'template_id',
              'language',
              'variables',
            ])
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
            Make start<span class="visually-hidden"> {label}</span>
          </button>
        )}
        <button type="button" class="danger" onClick={props.onRemove}>
          Remove<span class="visually-hidden"> {label}</span>
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
  const fieldLabel = `${props.label} ${spec.label.toLowerCase()}`;
  if (spec.kind === 'duration') {
    return <NodeDuration legend={fieldLabel} value={raw} onValue={(v) => set(spec.key, v)} invalid={props.invalid} />;
  }
  const common = {
    id,
    'aria-invalid': props.invalid ? true : undefined,
    'aria-describedby': spec.hint ? `${id}-hint` : undefined,
  };
  let input;
  if (spec.kind === 'textarea') {
    input = (
      <textarea {...common} value={(raw as string) ?? ''} onInput={(e) => set(spec.key, e.currentTarget.value)} />
    );
  } else if (spec.kind === 'select') {
    input = (
      <select {...common} value={(raw as string) ?? ''} onChange={(e) => set(spec.key, e.currentTarget.value)}>
        <option value="">(default)</option>
        {spec.options!.map((o) => (
          <option key={o} value={o}>
            {o}
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
      {spec.hint && (
        <small class="hint" id={`${id}-hint`}>
          {spec.hint}
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
      <option value="">{empty ?? '(nowhere: the flow ends)'}</option>
      {!known && <option value={value}>{value} (no such node)</option>}
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
      <legend>{label} buttons</legend>
      {buttons.map((b, i) => (
        <div class="inline-form" key={i}>
          <PlainField label={`Button ${i + 1} id`} value={b.id} onValue={(v) => change(i, { id: v })} />
          <PlainField label={`Button ${i + 1} title`} value={b.title} onValue={(v) => change(i, { title: v })} />
          <button
            type="button"
            onClick={() =>
              set(
                'buttons',
                buttons.filter((_, j) => j !== i),
              )
            }
          >
            Remove button {i + 1}
          </button>
        </div>
      ))}
      {buttons.length < 3 && (
        <button type="button" onClick={() => set('buttons', [...buttons, { id: '', title: '' }])}>
          Add button
        </button>
      )}
    </fieldset>
  );
}

const CONDITIONS = {
  reply_equals: 'Reply equals',
  reply_contains: 'Reply contains',
  button_id: 'Tapped button/row id',
  has_tag: 'Contact has tag',
  attribute_equals: 'Attribute equals',
  attribute_exists: 'Attribute is set',
} as const;
type ConditionKind = keyof typeof CONDITIONS;

interface Branch {
  when: Record<string, unknown>;
  next: string;
}

function conditionKind(when: Record<string, unknown>): ConditionKind {
  if ('attribute' in when) return 'exists' in when ? 'attribute_exists' : 'attribute_equals';
  return (Object.keys(CONDITIONS).find((k) => k in when) as ConditionKind | undefined) ?? 'reply_equals';
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
      <legend>{label} branches (tested in order)</legend>
      {branches.map((b, i) => {
        const kind = conditionKind(b.when);
        const attribute = (b.when.attribute as string | undefined) ?? '';
        const value =
          kind === 'attribute_exists'
            ? String(b.when.exists !== false)
            : kind === 'attribute_equals'
              ? ((b.when.equals as string | undefined) ?? '')
              : ((b.when[kind] as string | undefined) ?? '');
        const name = `Branch ${i + 1}`;
        return (
          <div class="inline-form branch" key={i}>
            <PlainSelect
              label={`${name} condition`}
              value={kind}
              options={CONDITIONS}
              onValue={(k) => change(i, { ...b, when: conditionOf(k as ConditionKind, '', attribute) })}
            />
            {kind.startsWith('attribute') && (
              <PlainField
                label={`${name} attribute`}
                value={attribute}
                onValue={(v) => change(i, { ...b, when: conditionOf(kind, value, v) })}
              />
            )}
            {kind === 'attribute_exists' ? (
              <PlainSelect
                label={`${name} is set`}
                value={value}
                options={{ true: 'yes', false: 'no' }}
                onValue={(v) => change(i, { ...b, when: conditionOf(kind, v, attribute) })}
              />
            ) : (
              <PlainField
                label={`${name} value`}
                value={value}
                onValue={(v) => change(i, { ...b, when: conditionOf(kind, v, attribute) })}
              />
            )}
            <BranchTarget
              label={`${name} go to`}
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
              Remove branch {i + 1}
            </button>
          </div>
        );
      })}
      <button type="button" onClick={() => set('branches', [...branches, { when: { reply_equals: '' }, next: '' }])}>
        Add branch
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
