import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { action, dashboard, v1, type ActionBody } from '../../api/client';
import { Link } from '../../router';
import { t } from '../../i18n/i18n';
import { ErrorNote, Page, TextField, useAsync, useSubmit } from '../../ui';
import { ForContactForm, ProblemList, StateCounts, recordState, useTemplates } from './common';
import { FlowCanvas } from './flow-canvas';
import { keyOf, useBuilderEdits } from './flow-edits';
import { BuilderActions, useLiveStats, VersionLine } from './flow-publish';
import { newCard } from './flow-defaults';
import { cardsOf, idFromTitle, nodesOf, reachableFrom, nameOf, partsOf, renameCard, type Card } from './flow-model';
import type { Point } from './flow-layout';
import { cleanNode, NODE_TYPES, nodeTypeName, type NodeType } from './flow-nodes';
import { NodePanel } from './flow-panel';
import { builderProblems, NO_PROBLEMS, problemsOnCards, type BuilderProblems } from './flow-problems';
import {
  layoutOf,
  neverPublished,
  openedDefinition,
  placedCards,
  saveDraft,
  type Definition,
  type Flow,
} from './flow-save';
import { countsOn, pathOn, type FlowStats } from './flow-stats';
import { TryPanel, type TryRun } from './flow-try';
import { usePublishedFlows, type SavedAnswer, type WhatsappFlow } from './flow-whatsapp-flow';
import { RunTable } from './sequences';
import { canvasStyles } from './flow-styles';
import './words';

const RUN_STATES = ['active', 'waiting', 'completed', 'handed_off', 'failed', 'cancelled'];

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

/** The cards the builder opens with: the flow's draft if it has one, else its live version (or a first card). */
function openedCards(flow: Flow | null): { cards: Card[]; start: string; keywords: string[] } {
  const opened = flow && openedDefinition(flow);
  if (!opened || opened.nodes.length === 0) {
    const cards = firstCards();
    return { cards, start: cards[0]!.node.id, keywords: [] };
  }
  return { cards: cardsOf(opened.nodes, opened.start), start: opened.start, keywords: opened.keywords };
}

/** A draft's problems on the cards it was opened as. */
function draftProblems(flow: Flow | null, cards: Card[]): BuilderProblems {
  if (!flow?.draft) return NO_PROBLEMS;
  return problemsOnCards(flow.draft.problems, partsOf(openedDefinition(flow).nodes, cards), cards);
}

/**
 * A flow the builder just created gets its address, without the page being opened again (the person
 * goes on where they were: the canvas, the try panel); reloading opens it from there.
 */
const addressed = (id: string) => history.replaceState(null, '', `/flows/${id}`);

const countOf = (problems: BuilderProblems) =>
  [...problems.cards.values()].reduce((sum, list) => sum + list.length, 0) + problems.flow.length;

function FlowEditor({ flow: opened }: { flow: Flow | null }) {
  const templates = useTemplates();
  const contactAttributes = useContactAttributes();
  const whatsappFlows = usePublishedFlows();
  const [flow, setFlow] = useState(opened);
  const initial = useMemo(() => openedCards(opened), [opened]);
  const [name, setName] = useState(opened?.name ?? '');
  const [keywords, setKeywords] = useState(initial.keywords.join(', '));
  const [cards, setCards] = useState(initial.cards);
  const [start, setStart] = useState(initial.start);
  const [selected, setSelected] = useState<string | null>(null);
  const [focusPanel, setFocusPanel] = useState(false);
  const [problems, setProblems] = useState<BuilderProblems>(() => draftProblems(opened, initial.cards));
  const [notice, setNotice] = useState('');
  const [placed] = useState(() => placedCards(initial.cards, opened?.layout ?? null));
  const positions = useRef(new Map<string, Point>());
  const onPlaced = useCallback((at: Map<string, Point>) => (positions.current = at), []);
  const words = keywords
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const definition = (): Definition => ({ start, keywords: words, nodes: nodesOf(cards).nodes.map(cleanNode) });
  const [savedAs, setSavedAs] = useState(() => JSON.stringify([name, definition()]));
  const unsaved = JSON.stringify([name, definition()]) !== savedAs;

  /** Keeps the canvas as the flow's draft; the draft's problems go on the cards. Says whether it has none. */
  const keep = async (): Promise<Flow> => {
    const { parts } = nodesOf(cards);
    const now = definition();
    try {
      const saved = await saveDraft(flow, name, now, layoutOf(cards, positions.current));
      setFlow(saved);
      setSavedAs(JSON.stringify([name, now]));
      setProblems(problemsOnCards(saved.draft?.problems ?? [], parts, cards));
      if (!flow) addressed(saved.id);
      return saved;
    } catch (error) {
      setProblems(builderProblems(error, parts, cards));
      throw error;
    }
  };
  const save = useSubmit(async () => {
    setNotice('');
    const saved = await keep();
    setNotice(
      saved.draft?.problems.length ? t('automation:builder.draftKeptWithProblems') : t('automation:builder.draftSaved'),
    );
  });
  /** A new flow is published by save-flow as version 1; one that cannot be yet is kept as a draft instead. */
  const create = async (): Promise<Flow | null> => {
    const now = definition();
    try {
      const checked = now as ActionBody<'save-flow'>['definition'];
      const layout = layoutOf(cards, positions.current);
      const created = await action('save-flow', { name, definition: checked, layout });
      setSavedAs(JSON.stringify([name, now]));
      addressed(created.id);
      return created;
    } catch (error) {
      if (!(error instanceof ApiError) || error.problem.code !== 'validation_failed') throw error;
      await keep();
      return null;
    }
  };
  const publish = useSubmit(async () => {
    setNotice('');
    let published = flow ? null : await create();
    if (flow) {
      const saved = await keep();
      if (saved.draft?.problems.length) return setNotice(t('automation:builder.draftKeptWithProblems'));
      published = await action('publish-flow', { flow_id: saved.id });
    }
    if (!published) return setNotice(t('automation:builder.draftKeptWithProblems'));
    setFlow(published);
    setProblems(NO_PROBLEMS);
    setNotice(t('automation:builder.published', { version: published.version }));
  });
  const [trying, setTrying] = useState<TryRun | null>(null);
  const [tryPath, setTryPath] = useState<FlowStats | null>(null);
  const tryIt = useSubmit(async () => {
    setNotice('');
    setTrying(null);
    // What is on the canvas is tried: kept as the draft first unless it is already saved (a try makes no draft).
    const saved = flow && !unsaved ? flow : await keep();
    if (saved.draft?.problems.length) return setNotice(t('automation:builder.draftKeptWithProblems'));
    setTrying(await action('try-flow', { flow_id: saved.id }));
  });

  useEffect(() => {
    if (!focusPanel) return;
    document.querySelector<HTMLElement>('.node-panel input')?.focus();
    setFocusPanel(false);
  }, [focusPanel]);

  const edit = useBuilderEdits({ cards, setCards, start, setStart, setProblems, setSelected });
  const reachable = useMemo(() => reachableFrom(start, cards), [start, cards]);
  const stats = useLiveStats(flow);
  const counts = useMemo(() => countsOn(cards, stats), [cards, stats]);
  const lit = useMemo(() => pathOn(cards, tryPath), [cards, tryPath]);
  const card = cards.find((c) => c.key === selected);
  const targets = cards.map((c) => ({
    id: c.node.id,
    label: t('automation:flows.target', { id: nameOf(c.node), type: nodeTypeName(c.node.type) }),
  }));
  const problemCount = countOf(problems);
  const nameProblem = problems.flow.find((p) => p.field === '/name')?.message;
  const keywordsProblem = problems.flow.find((p) => p.field.startsWith('/definition/keywords'))?.message;
  const otherProblems = problems.flow.filter((p) => p.field !== '/name' && !p.field.startsWith('/definition/keywords'));
  const busy = save.busy || publish.busy || tryIt.busy;
  const error = save.error ?? publish.error ?? tryIt.error;

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
      <VersionLine flow={flow} unsaved={unsaved} stats={stats} />
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
          placed={placed}
          counts={counts}
          lit={lit}
          onPlaced={onPlaced}
          onSelect={setSelected}
          onConnect={edit.connect}
          onRemove={edit.remove}
        />
        <div class="builder-side">
          {trying && flow && (
            <TryPanel flowId={flow.id} run={trying} onPath={setTryPath} onClose={() => setTrying(null)} />
          )}
          {card ? (
            <NodePanel
              key={card.key}
              card={card}
              isStart={card.node.id === start}
              problems={problems.cards.get(card.key) ?? []}
              targets={targets}
              templates={templates.data ?? []}
              variables={variablesFor(card, cards, contactAttributes, whatsappFlows.data ?? [])}
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
            !trying && <p class="muted builder-hint">{t('automation:builder.selectHint')}</p>
          )}
        </div>
      </div>
      <BuilderActions
        busy={busy}
        problems={problemCount}
        nothingNew={!!flow && !unsaved && flow.draft === null && !neverPublished(flow)}
        onPublish={() => void publish.run()}
        onTry={() => void tryIt.run()}
      />
      {error !== null && problemCount > 0 && (
        <p class="error" role="alert">
          {t('automation:flows.notSaved', { count: problemCount })}
        </p>
      )}
      {error !== null && problemCount === 0 && <ErrorNote error={error} />}
      <p class={notice ? 'notice' : undefined} role="status">
        {notice}
      </p>
    </form>
  );
}

/**
 * The placeholders a card's text may use: the contact's fields, then the attributes the nodes before it
 * save (an answer, a set attribute, a webhook's response), then those the workspace's contacts have.
 */
function variablesFor(card: Card, cards: Card[], contactAttributes: string[], whatsappFlows: WhatsappFlow[]): string[] {
  const before = cards.filter((c) => c !== card && reachableFrom(c.node.id, cards).has(card.node.id));
  const kept = (c: Card) => ((c.node.save_answers as SavedAnswer[] | undefined) ?? []).map((a) => a.attribute);
  const saved = before.flatMap((c) => [c.node.attribute, c.node.save_as, ...kept(c)]);
  // A WhatsApp Flow sent earlier fills {{answer.FIELD}} with its answer's fields.
  const sent = new Set(before.map((c) => c.node.whatsapp_flow_id));
  const answered = whatsappFlows.filter((f) => sent.has(f.id)).flatMap((f) => f.answer_fields.map((a) => a.name));
  const attributes = [...new Set([...saved, ...contactAttributes])].filter(
    (a): a is string => typeof a === 'string' && ATTRIBUTE.test(a),
  );
  return [
    '{{contact.first_name}}',
    '{{contact.name}}',
    '{{contact.phone}}',
    '{{contact.email}}',
    ...attributes.map((a) => `{{attributes.${a}}}`),
    ...[...new Set(answered)].filter((name) => ATTRIBUTE.test(name)).map((name) => `{{answer.${name}}}`),
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
