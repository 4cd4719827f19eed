import { ApiError, problemWords, type FieldProblem } from '../../api';
import { t } from '../../i18n/i18n';
import { fieldLabel } from './common';
import { exitName } from './flow-exits';
import type { Card, NodePart } from './flow-model';
import { FIELDS } from './flow-nodes';

/**
 * A save's problem as the builder shows it: on its card, at the field the card's panel names `field`
 * ('text', 'buttons/2/title', 'exit:choice/yes', 'wait/timeout'; '' for the whole node), in words.
 */
export interface CardProblem {
  field: string;
  message: string;
}

/** The problems of a failed save: by card key, and those of the flow itself (its name, keywords, start). */
export interface BuilderProblems {
  cards: Map<string, CardProblem[]>;
  flow: FieldProblem[];
}

export const NO_PROBLEMS: BuilderProblems = { cards: new Map(), flow: [] };

const NODE_PATH = /^\/definition\/nodes\/(\d+)(?:\/(.*))?$/;

/**
 * The API's problems (JSON Pointers into the definition that was saved, `parts` telling which card each
 * of its nodes belongs to) on the cards, in people's words.
 */
export function builderProblems(error: unknown, parts: NodePart[], cards: Card[]): BuilderProblems {
  if (!(error instanceof ApiError)) return NO_PROBLEMS;
  return problemsOnCards(error.problem.errors ?? [], parts, cards);
}

/** Problems at JSON Pointers into a definition (a refused save's, or a draft's), on the cards, in people's words. */
export function problemsOnCards(problems: FieldProblem[], parts: NodePart[], cards: Card[]): BuilderProblems {
  const result: BuilderProblems = { cards: new Map(), flow: [] };
  for (const problem of problems) {
    const pointer = problem.field.startsWith('/') ? problem.field : `/${problem.field.replaceAll('.', '/')}`;
    const found = NODE_PATH.exec(pointer);
    const part = found && parts[Number(found[1])];
    const card = part && cards.find((c) => c.key === part.card);
    if (!part || !card) {
      result.flow.push({ ...problem, field: pointer, message: problemWords(problem) });
      continue;
    }
    const field = cardField(card, part.part, found[2] ?? '');
    const list = result.cards.get(card.key) ?? [];
    const message = sentence(card, field, problem);
    if (!list.some((p) => p.message === message)) list.push({ field, message });
    result.cards.set(card.key, list);
  }
  return result;
}

/** The card's field a path under one of its nodes is about. */
function cardField(card: Card, part: NodePart['part'], path: string): string {
  if (part === 'wait') {
    if (path === 'next') return 'exit:other';
    if (path === 'on_timeout') return 'exit:no_reply';
    return path && `wait/${path}`;
  }
  if (part === 'choice') {
    const branch = /^branches\/(\d+)/.exec(path);
    if (branch) {
      const when = (card.choice?.branches as { when: { button_id?: string } }[] | undefined)?.[Number(branch[1])];
      return `exit:choice/${when?.when.button_id ?? ''}`;
    }
    return path === 'default' ? 'exit:other' : '';
  }
  const exit = /^(branches\/\d+)\/next$/.exec(path)?.[1] ?? /^(next|on_timeout|on_error|default)$/.exec(path)?.[1];
  if (exit) return `exit:${exit}`;
  // A choice's id is made from its title: a problem with the id is the title's.
  return path.replace(/^((?:buttons|sections\/\d+\/rows)\/\d+)\/id$/, '$1/title').replace(/^(branches\/\d+)\/.*/, '$1');
}

const isMissing = (problem: FieldProblem) =>
  /^(must not be empty|is required\b|must have at least 1 item)/.test(problem.message);

/** One problem in the words of the panel that shows its field. */
function sentence(card: Card, field: string, problem: FieldProblem): string {
  const code = problem.code?.replace(/^flows\./, '');
  if (field.startsWith('exit:')) {
    const exit = exitName(card, field.slice('exit:'.length));
    if (code === 'unknown_target') return t('automation:builder.problems.exitGone', { exit });
    if (isMissing(problem)) return t('automation:builder.problems.exitOpen', { exit });
    return t('automation:builder.problems.about', { field: exit, message: problemWords(problem) });
  }
  const choice = /^(buttons|sections\/(\d+)\/rows)\/(\d+)\/title$/.exec(field);
  if (choice) return choiceSentence(choice, code, problem);
  const section = /^sections\/(\d+)\/title$/.exec(field);
  if (section && isMissing(problem)) {
    return t('automation:builder.problems.sectionTitle', { n: Number(section[1]) + 1 });
  }
  if (field === '') return nodeSentence(code, problem);
  if (code === 'too_many_rows') return t('automation:builder.problems.tooManyRows');
  const label = labelOf(card, field);
  if (isMissing(problem)) return t('automation:builder.problems.needed', { field: label });
  return t('automation:builder.problems.about', { field: label, message: problemWords(problem) });
}

function choiceSentence(found: RegExpExecArray, code: string | undefined, problem: FieldProblem): string {
  const n = Number(found[3]) + 1;
  const section = found[2] === undefined ? undefined : Number(found[2]) + 1;
  if (code === 'duplicate_button') return t('automation:builder.problems.buttonRepeats', { n });
  if (code === 'duplicate_row') return t('automation:builder.problems.rowRepeats', { n, section });
  if (section === undefined) {
    if (isMissing(problem)) return t('automation:builder.problems.buttonTitle', { n });
    return t('automation:builder.problems.about', {
      field: t('automation:builder.button', { n }),
      message: problemWords(problem),
    });
  }
  if (isMissing(problem)) return t('automation:builder.problems.rowTitle', { n, section });
  return t('automation:builder.problems.about', {
    field: t('automation:builder.sectionRow', { n, section }),
    message: problemWords(problem),
  });
}

function nodeSentence(code: string | undefined, problem: FieldProblem): string {
  if (code === 'unreachable') return t('automation:builder.problems.unreachable');
  if (code === 'loop_without_wait') return t('automation:builder.problems.loop');
  if (code === 'duplicate_node') return t('automation:builder.problems.sameName');
  return problemWords(problem);
}

/** A field's label as the node's panel shows it. */
function labelOf(card: Card, field: string): string {
  if (field === 'wait/timeout') return t('automation:builder.waitUpTo');
  if (field === 'template_id') return t('automation:template');
  if (field === 'whatsapp_flow_id') return t('automation:whatsappFlowNode.flow');
  if (field === 'button') return t('automation:nodes.labels.button_label');
  const spec = FIELDS[card.node.type].find((f) => f.key === field.split('/')[0]);
  if (spec) return spec.label();
  const branch = /^branches\/(\d+)$/.exec(field);
  if (branch) return t('automation:builder.condition', { n: Number(branch[1]) + 1 });
  return fieldLabel(field);
}
