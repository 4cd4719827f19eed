import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { action, dashboard, v1, type ActionAnswer, type ActionBody } from '../../api/client';
import { Link, navigate } from '../../router';
import { t } from '../../i18n/i18n';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../../ui';
import { ForContactForm, ProblemList, StateCounts, recordState, useTemplates } from './common';
import { FlowCanvas } from './flow-canvas';
import { newCard } from './flow-defaults';
import {
  cardsOf,
  connect,
  idFromTitle,
  idsOf,
  nodesOf,
  reachableFrom,
  removeCard,
  renameCard,
  titleOf,
  type Card,
} from './flow-model';
import { cleanNode, NODE_TYPES, nodeTypeName, type NodeType } from './flow-nodes';
import { NodePanel } from './flow-panel';
import { builderProblems, NO_PROBLEMS, type BuilderProblems, type CardProblem } from './flow-problems';
import { RunTable } from './sequences';
import { canvasStyles } from './flow-styles';
import './words';

const RUN_STATES = ['active', 'waiting', 'completed', 'handed_off', 'failed', 'cancelled'];

type Flow = ActionAnswer<'get-flow'>;
type Definition = { start: string; keywords: string[]; nodes: Card['node'][] };

/** /flows/new and /flows/:id: the flow builder, and for a saved flow its runs. */
export function FlowPage({ id }: { id?: string }) {
  const flow = useAsync(async () => {
    await canvasStyles();
    return id ? action('get-flow', { flow_id: id }) : null;
  }, [id]);
  const title = id ? (flow.data?.name ?? t('automation:flows.flow')) : t('automation:flows.new');
  return (
    <Page title={title} actions={<Link href="/flows">{t('automation:flows.all')}</Link>}>
      <ErrorNote error={flow.error} />
      {flow.loading && !flow.data && <p class="loading">{t('automation:loading')}</p>}
      {(flow.data || (!id && !flow.loading)) && <FlowEditor key={flow.data?.id ?? 'new'} flow={flow.data ?? null} />}
      {flow.data && <FlowRuns flow={flow.data} reload={flow.reload} />}
    </Page>
  );
}

/** A new flow starts with one message, its start. */
function firstCards(): Card[] {
  const card = newCard('send_text', []);
  const id = idFromTitle(t('automation:builder.firstNode'), new Set(), 'welcome');
  return renameCard([card], card.node.id, id);
}

/**
 * One place that stores what the builder made (save-flow validates and publishes it in one step). The
 * builder edits nodes loosely typed; the server checks the definition whole and names each problem.
 */
async function saveDefinition(flow: Flow | null, name: string, definition: Definition) {
  const checked = definition as ActionBody<'save-flow'>['definition'];
  return action('save-flow', { ...(flow && { id: flow.id }), name, definition: checked });
}

function FlowEditor({ flow }: { flow: Flow | null }) {
  const templates = useTemplates();
  const contactAttributes = useContactAttributes();
  const [name, setName] = useState(flow?.name ?? '');
  const [keywords, setKeywords] = useState((flow?.keywords ?? []).join(', '));
  const [cards, setCards] = useState(() => (flow ? cardsOf(flow.nodes, flow.start) : firstCards()));
  const [start, setStart] = useState(flow?.start ?? cards[0]!.node.id);
  const [selected, setSelected] = useState<string | null>(null);
  const [focusPanel, setFocusPanel] = useState(false);
  const [problems, setProblems] = useState<BuilderProblems>(NO_PROBLEMS);
  const [saved, setSaved] = useState(false);
  const words = keywords
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);

  const save = useSubmit(async () => {
    setSaved(false);
    const { nodes, parts } = nodesOf(cards);
    try {
      const result = await saveDefinition(flow, name, { start, keywords: words, nodes: nodes.map(cleanNode) });
      setProblems(NO_PROBLEMS);
      setSaved(true);
      if (!flow) navigate(`/flows/${result.id}`, { replace: true });
    } catch (error) {
      setProblems(builderProblems(error, parts, cards));
      throw error;
    }
  });

  useEffect(() => {
    if (!focusPanel) return;
    document.querySelector<HTMLElement>('.node-panel input')?.focus();
    setFocusPanel(false);
  }, [focusPanel]);

  const edit = useBuilderEdits({ cards, setCards, start, setStart, setProblems, setSelected });
  const reachable = useMemo(() => reachableFrom(start, cards), [start, cards]);
  const card = cards.find((c) => c.key === selected);
  const targets = cards.map((c) => ({
    id: c.node.id,
    label: t('automation:flows.target', { id: titleOf(c.node.id), type: nodeTypeName(c.node.type) }),
  }));
  const cardProblemCount = [...problems.cards.values()].reduce((sum, list) => sum + list.length, 0);
  const nameProblem = problems.flow.find((p) => p.field === '/name')?.message;
  const keywordsProblem = problems.flow.find((p) => p.field.startsWith('/definition/keywords'))?.message;
  const otherProblems = problems.flow.filter((p) => p.field !== '/name' && !p.field.startsWith('/definition/keywords'));

  return (
    <form class="flow-builder" onSubmit={save.onSubmit} aria-label={t('automation:flows.flow')} noValidate>
      <div class="builder-head">
        <TextField
          label={t('automation:name')}
          value={name}
          onValue={(value) => {
            setName(value);
            setProblems((p) => ({ ...p, flow: p.flow.filter((f) => f.field !== '/name') }));
          }}
          maxLength={200}
          required
          error={nameProblem}
        />
        <TextField
          label={t('automation:flows.keywords')}
          value={keywords}
          onValue={setKeywords}
          hint={t('automation:flows.keywordsHint')}
          error={keywordsProblem}
        />
        <AddNode
          onAdd={(type) => {
            const added = edit.add(type);
            setSelected(added);
            setFocusPanel(true);
          }}
        />
      </div>
      <ProblemList problems={otherProblems} labels={{ '/definition/start': t('automation:builder.start') }} />
      <ErrorNote error={templates.error} />
      <div class="builder-body">
        <FlowCanvas
          cards={cards}
          start={start}
          keywords={words}
          selected={selected}
          problems={problems.cards}
          reachable={reachable}
          onSelect={setSelected}
          onConnect={edit.connect}
          onRemove={edit.remove}
        />
        <div class="builder-side">
          {card ? (
            <NodePanel
              key={card.key}
              card={card}
              isStart={card.node.id === start}
              problems={problems.cards.get(card.key) ?? []}
              targets={targets}
              templates={templates.data ?? []}
              variables={variablesFor(card, cards, contactAttributes)}
              onChange={edit.change}
              onConnect={(exit, target) => edit.connect(card.key, exit, keyOf(cards, target))}
              onRename={(title) => edit.rename(card.key, title)}
              onMakeStart={() => setStart(card.node.id)}
              onRemove={() => {
                edit.remove([card.key]);
                setSelected(null);
              }}
            />
          ) : (
            <p class="muted builder-hint">{t('automation:builder.selectHint')}</p>
          )}
        </div>
      </div>
      <div class="form-actions">
        <button type="submit" class="primary" disabled={save.busy}>
          {t('automation:flows.save')}
        </button>
      </div>
      {save.error !== null && cardProblemCount + problems.flow.length > 0 && (
        <p class="error" role="alert">
          {t('automation:flows.notSaved', { count: cardProblemCount + problems.flow.length })}
        </p>
      )}
      {save.error !== null && cardProblemCount + problems.flow.length === 0 && <ErrorNote error={save.error} />}
      {saved && (
        <p class="notice" role="status">
          {t('automation:saved')}
        </p>
      )}
    </form>
  );
}

const keyOf = (cards: Card[], id: string) => cards.find((c) => c.node.id === id)?.key ?? '';

/** The builder's edits of its cards, by card key; each one drops the problems of what it changed. */
function useBuilderEdits(state: {
  cards: Card[];
  setCards: (cards: Card[]) => void;
  start: string;
  setStart: (id: string) => void;
  setProblems: (update: (p: BuilderProblems) => BuilderProblems) => void;
  setSelected: (key: string | null) => void;
}) {
  const { cards, setCards, start, setStart } = state;
  const settle = (key: string, fields: string[]) =>
    state.setProblems((p) => ({ ...p, cards: withoutFields(p.cards, key, fields) }));
  const freshId = (base: string) => idFromTitle(base, idsOf(cards), base);
  return {
    add: (type: NodeType): string => {
      const card = newCard(type, cards);
      setCards([...cards, card]);
      return card.key;
    },
    change: (card: Card, fields: string[]) => {
      setCards(cards.map((c) => (c.key === card.key ? card : c)));
      settle(card.key, fields);
    },
    connect: (key: string, exit: string, targetKey: string) => {
      const target = cards.find((c) => c.key === targetKey)?.node.id ?? '';
      setCards(cards.map((c) => (c.key === key ? connect(c, exit, target, freshId) : c)));
      settle(key, [`exit:${exit}`]);
    },
    rename: (key: string, title: string) => {
      const card = cards.find((c) => c.key === key)!;
      const taken = idsOf(cards.filter((c) => c !== card));
      const id = idFromTitle(title, taken, card.node.type);
      setCards(renameCard(cards, card.node.id, id));
      if (start === card.node.id) setStart(id);
    },
    remove: (keys: string[]) => {
      const gone = cards.filter((c) => keys.includes(c.key));
      const left = gone.reduce((rest, c) => removeCard(rest, c.node.id), cards);
      setCards(left);
      if (gone.some((c) => c.node.id === start) && left[0]) setStart(left[0].node.id);
      state.setSelected(null);
    },
  };
}

function withoutFields(all: Map<string, CardProblem[]>, key: string, fields: string[]) {
  const list = all.get(key);
  if (!list) return all;
  const kept = list.filter((p) => !fields.some((f) => p.field === f || p.field.startsWith(`${f}/`)));
  return new Map(all).set(key, kept);
}

/**
 * The placeholders a card's text may use: the contact's fields, then the attributes the nodes before it
 * save (an answer, a set attribute, a webhook's response), then those the workspace's contacts have.
 */
function variablesFor(card: Card, cards: Card[], contactAttributes: string[]): string[] {
  const before = cards.filter((c) => c !== card && reachableFrom(c.node.id, cards).has(card.node.id));
  const saved = before.flatMap((c) => [c.node.attribute, c.node.save_as]);
  const attributes = [...new Set([...saved, ...contactAttributes])].filter(
    (a): a is string => typeof a === 'string' && ATTRIBUTE.test(a),
  );
  return [
    '{{contact.first_name}}',
    '{{contact.name}}',
    '{{contact.phone}}',
    '{{contact.email}}',
    ...attributes.map((a) => `{{attributes.${a}}}`),
  ];
}

/** An attribute a placeholder can name (render.ts reads `attributes.KEY` of word characters and -). */
const ATTRIBUTE = /^[\w-]+$/;

/** The attributes the workspace's latest contacts carry (the first page of the contact list). */
function useContactAttributes(): string[] {
  const latest = useAsync(() => dashboard.get('/api/dashboard/contacts', { query: { limit: '100' } }), []);
  return useMemo(
    () => [...new Set((latest.data?.contacts ?? []).flatMap((c) => Object.keys(c.custom_attributes)))].sort(),
    [latest.data],
  );
}

/** Adding a node: its type from a pick-list, then a button (the keyboard's way as well as the pointer's). */
function AddNode({ onAdd }: { onAdd: (type: NodeType) => void }) {
  const id = useId();
  const [type, setType] = useState<NodeType>('send_text');
  return (
    <div class="add-node">
      <label for={id}>{t('automation:builder.newNodeType')}</label>
      <select id={id} value={type} onChange={(e) => setType(e.currentTarget.value as NodeType)}>
        {NODE_TYPES.map((option) => (
          <option key={option} value={option}>
            {nodeTypeName(option)}
          </option>
        ))}
      </select>
      <button type="button" onClick={() => onAdd(type)}>
        {t('automation:flows.addNode')}
      </button>
    </div>
  );
}

/** Runs by state, the start form and the latest runs of a saved flow. */
function FlowRuns({ flow, reload }: { flow: Flow; reload: () => void }) {
  const recent = useAsync(
    () => v1.get('/v1/triggers/new-flow-triggered', { query: { flow_id: flow.id } }),
    [flow.id, flow.runs],
  );
  const start = async (phone: string) => {
    const started = await action('trigger-flow', { flow_id: flow.id, phone });
    reload();
    return t('automation:flows.startedFor', {
      phone: started.contact_phone,
      state: recordState(started.status).toLocaleLowerCase(),
    });
  };
  return (
    <section aria-labelledby="runs-title" class="flow-runs">
      <h2 id="runs-title">{t('automation:flows.runs')}</h2>
      <StateCounts counts={flow.runs} states={RUN_STATES} label={t('automation:flows.runsByState')} />
      <ForContactForm label={t('automation:flows.startForContact')} submit={t('automation:flows.start')} run={start} />
      <h3>{t('automation:flows.recentRuns')}</h3>
      <ErrorNote error={recent.error} />
      <RunTable records={recent.data ?? []} caption={t('automation:flows.recentRuns')} />
    </section>
  );
}
