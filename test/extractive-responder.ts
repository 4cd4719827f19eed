import type { ChatCompletionRequest } from './openai-stand-in.js';

/**
 * A stand-in model that answers from the context it is sent, as a cautious extractive reader would: for
 * the OpenAI stand-in's `respond`, so an evaluation's figures come from what Parley actually sent.
 *
 * Written from OpenAI's chat completions request alone (`messages` with `system` and `user` roles, and a
 * `response_format` of type `json_schema`), not from Parley's code: the system message is read as text
 * in which passages follow a line naming their id (a UUID); the customer's question is the last `user`
 * message. The answer is the passage sentence sharing the most words with the question (by share of its
 * words, on a tie), cited by its passage's id; with no shared word, or a sentence that defers to a person,
 * it hands over. It fills whichever of the schema's properties it knows (action, reply, confidence,
 * citations, hand_over, tags, attributes) and null or empty for the rest, as strict mode requires.
 */
export function extractiveResponder(request: ChatCompletionRequest): string {
  const question = textOf([...request.messages].reverse().find((message) => message.role === 'user')?.content);
  const context = request.messages
    .filter((message) => message.role === 'system')
    .map((message) => textOf(message.content))
    .join('\n');
  const best = bestSentence(sentencesOf(context), wordsOf(question));
  const properties = schemaProperties(request);
  if (!best || DEFERS.test(best.text)) {
    return answer(properties, {
      action: 'hand_over',
      reply: null,
      confidence: 0.3,
      citations: [],
      hand_over: { reason: 'Not in what I was given', summary: `The customer asked: ${question}` },
    });
  }
  return answer(properties, { action: 'reply', reply: best.text, confidence: 0.9, citations: [best.id] });
}

/** A message's text: its `content` string, or the text parts of a content array (OpenAI's two forms). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : ''))
    .join('\n');
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** A sentence that sends the customer to a person is no answer a reader can give. */
const DEFERS = /\b(a person|call you back|consultation)\b/i;
/** Words too common to say what a question is about. */
const COMMON = new Set(
  'the and for you are can does what how much when where your our with this that from have has will its it is do on in at to of or if my me we us an be'.split(
    ' ',
  ),
);

interface Sentence {
  id: string;
  text: string;
  words: Set<string>;
}

/** Lower case, accents folded, a plural's s dropped: "Sundays" and "sunday" are one word. */
function wordsOf(text: string): Set<string> {
  const folded = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const words = folded.match(/[a-z0-9:]+/g) ?? [];
  return new Set(
    words.filter((word) => word.length > 2 && !COMMON.has(word)).map((word) => word.replace(/(?<=[a-z]{3})s$/, '')),
  );
}

/**
 * The sentences of the passages, each with the id of the passage it is in (text before the first id is
 * not a passage). A paragraph wrapped over lines is one text; a list item or a heading starts another.
 */
function sentencesOf(context: string): Sentence[] {
  const blocks: { id: string; text: string }[] = [];
  let id: string | null = null;
  let open = false;
  for (const line of context.split('\n')) {
    const named = UUID.exec(line);
    if (named) id = named[0];
    if (named || id === null || line.trim() === '') {
      open = false;
      continue;
    }
    const starts = /^\s*([-*#]|\d+\.)\s/.test(line);
    const text = line.replace(/^\s*([-*#]+|\d+\.)\s+/, '').trim();
    if (open && !starts) blocks.at(-1)!.text += ` ${text}`;
    else blocks.push({ id, text });
    open = true;
  }
  return blocks.flatMap(({ id, text }) =>
    text
      .split(/(?<=[.!?])\s+/)
      .filter((sentence) => sentence.trim())
      .map((sentence) => ({ id, text: sentence.trim(), words: wordsOf(sentence) })),
  );
}

function bestSentence(sentences: Sentence[], asked: Set<string>): Sentence | null {
  let best: { sentence: Sentence; shared: number; density: number } | null = null;
  for (const sentence of sentences) {
    const shared = [...asked].filter((word) => sentence.words.has(word)).length;
    const density = shared / Math.max(1, sentence.words.size);
    if (shared > 0 && (!best || shared > best.shared || (shared === best.shared && density > best.density))) {
      best = { sentence, shared, density };
    }
  }
  return best?.sentence ?? null;
}

/** The `json_schema` response format's top-level properties. */
function schemaProperties(request: ChatCompletionRequest): Record<string, { type?: unknown }> {
  const schema = request.response_format?.json_schema?.schema as { properties?: Record<string, { type?: unknown }> };
  return schema?.properties ?? {};
}

/** The answer with every property of the schema: the known ones as given, the others null or empty. */
function answer(properties: Record<string, { type?: unknown }>, known: Record<string, unknown>): string {
  const filled = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      name in known ? known[name] : property.type === 'array' ? [] : null,
    ]),
  );
  return JSON.stringify(filled);
}
