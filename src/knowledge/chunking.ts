/**
 * Cuts a document into the chunks retrieval finds and cites: by its Markdown headings first (each chunk
 * keeps the path of headings above it), then into pieces of at most CHUNK_WORDS words that end at a
 * paragraph or sentence where they can, each starting with the last sentence or so of the one before
 * (OVERLAP_WORDS), so an answer cut in two is still found whole in one of them.
 */
export interface ChunkDraft {
  /** The headings above the chunk, outermost first, joined with HEADING_SEPARATOR; "" when none. */
  heading: string;
  text: string;
}

export const CHUNK_WORDS = 250;
export const OVERLAP_WORDS = 40;
export const HEADING_SEPARATOR = ' › ';

const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Section {
  path: string[];
  lines: string[];
}

/** A piece of a section: a sentence, a code line or a run of words, and what separates it from the one before. */
interface Unit {
  text: string;
  words: number;
  before: '\n\n' | '\n' | ' ';
}

/** The chunks of a document, in reading order. */
export function chunkDocument(content: string, format: 'markdown' | 'text'): ChunkDraft[] {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const sections = format === 'markdown' ? markdownSections(lines) : [{ path: [], lines }];
  return sections.flatMap((section) =>
    packUnits(unitsOf(section.lines)).map((text) => ({ heading: section.path.join(HEADING_SEPARATOR), text })),
  );
}

/** The chunks of one passage under a heading of its own (a Q&A pair's answer under its question). */
export function chunkPassage(heading: string, text: string): ChunkDraft[] {
  return packUnits(unitsOf(text.replace(/\r\n?/g, '\n').split('\n'))).map((piece) => ({ heading, text: piece }));
}

/** Splits Markdown at its headings (ATX `#` and setext underlines), outside code fences. */
function markdownSections(lines: string[]): Section[] {
  const sections: Section[] = [{ path: [], lines: [] }];
  const stack: { level: number; title: string }[] = [];
  let fence: string | null = null;
  const open = (level: number, title: string) => {
    while (stack.length > 0 && stack.at(-1)!.level >= level) stack.pop();
    stack.push({ level, title: title.trim() });
    sections.push({ path: stack.map((h) => h.title).filter(Boolean), lines: [] });
  };
  for (const line of lines) {
    const current = sections.at(-1)!;
    const fenceMark = FENCE.exec(line)?.[1];
    const inCode = fence !== null || fenceMark !== undefined;
    if (fence === null && fenceMark) fence = fenceMark;
    else if (fence !== null && fenceMark?.startsWith(fence)) fence = null;
    const heading = inCode ? null : ATX_HEADING.exec(line);
    if (heading) {
      open(heading[1]!.length, heading[2] ?? '');
      continue;
    }
    const underline = inCode ? null : SETEXT_UNDERLINE.exec(line);
    const previous = current.lines.at(-1);
    const onePreviousLine = previous?.trim() && !current.lines.at(-2)?.trim();
    if (underline && onePreviousLine) {
      current.lines.pop();
      open(underline[1]!.startsWith('=') ? 1 : 2, previous!);
      continue;
    }
    current.lines.push(line);
  }
  return sections;
}

/** A section's sentences (code: its lines), each marked when it starts a paragraph. */
function unitsOf(lines: string[]): Unit[] {
  const units: Unit[] = [];
  for (const block of blocksOf(lines)) {
    const pieces = block.code
      ? block.text.split('\n').map((line) => ({ text: line, newline: true }))
      : sentencesOf(block.text);
    pieces.forEach((piece, i) => {
      for (const [j, run] of wordRuns(piece.text).entries()) {
        const before = i === 0 && j === 0 ? '\n\n' : j === 0 && pieces[i - 1]!.newline ? '\n' : ' ';
        units.push({ text: run.text, words: run.words, before });
      }
    });
  }
  return units;
}

/** Paragraphs (blank-line separated) and fenced code blocks, whole. */
function blocksOf(lines: string[]): { text: string; code: boolean }[] {
  const blocks: { text: string; code: boolean }[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  const flush = (code: boolean) => {
    const text = current.join('\n').trim();
    if (text) blocks.push({ text, code });
    current = [];
  };
  for (const line of lines) {
    const fenceMark = FENCE.exec(line)?.[1];
    if (fence === null && fenceMark) {
      flush(false);
      fence = fenceMark;
      current.push(line);
    } else if (fence !== null) {
      current.push(line);
      if (fenceMark?.startsWith(fence)) {
        fence = null;
        flush(true);
      }
    } else if (!line.trim()) flush(false);
    else current.push(line);
  }
  flush(fence !== null);
  return blocks;
}

/** A paragraph's sentences, each with whether a line break (a list item's, a verse's) follows it. */
function sentencesOf(text: string): { text: string; newline: boolean }[] {
  return [...sentences.segment(text)]
    .map((s) => ({ text: s.segment.trim(), newline: /\n\s*$/.test(s.segment) }))
    .filter((s) => s.text);
}

/** A piece as runs of at most CHUNK_WORDS words (a sentence longer than a chunk is cut between words). */
function wordRuns(piece: string): { text: string; words: number }[] {
  const runs: { text: string; words: number }[] = [];
  let start = 0;
  let count = 0;
  for (const segment of words.segment(piece)) {
    if (!segment.isWordLike) continue;
    if (count === CHUNK_WORDS) {
      runs.push({ text: piece.slice(start, segment.index).trim(), words: count });
      start = segment.index;
      count = 0;
    }
    count += 1;
  }
  const rest = piece.slice(start).trim();
  if (rest) runs.push({ text: rest, words: count });
  return runs;
}

/** Packs units into chunks of at most CHUNK_WORDS words; each after the first starts with its predecessor's tail. */
function packUnits(units: Unit[]): string[] {
  const chunks: string[] = [];
  let current: Unit[] = [];
  let size = 0;
  let fresh = 0; // units in `current` that no earlier chunk holds
  const emit = () => {
    chunks.push(joined(current));
    const tail: Unit[] = [];
    let tailSize = 0;
    for (const unit of [...current].reverse()) {
      if (tailSize + unit.words > OVERLAP_WORDS) break;
      tail.unshift(unit);
      tailSize += unit.words;
    }
    // A last sentence longer than the overlap: its last words, then.
    if (tail.length === 0) tail.push(lastWords(current.at(-1)!, OVERLAP_WORDS));
    tailSize = tail.reduce((sum, unit) => sum + unit.words, 0);
    current = tail;
    size = tailSize;
    fresh = 0;
  };
  for (const unit of units) {
    if (fresh > 0 && size + unit.words > CHUNK_WORDS) emit();
    // The tail must leave room for the next unit: drop its oldest sentences until it does.
    while (current.length > 0 && size + unit.words > CHUNK_WORDS) size -= current.shift()!.words;
    current.push(unit);
    size += unit.words;
    fresh += 1;
  }
  if (fresh > 0) chunks.push(joined(current));
  return chunks;
}

/** The last `count` words of a unit, from the start of a word. */
function lastWords(unit: Unit, count: number): Unit {
  const starts = [...words.segment(unit.text)].filter((s) => s.isWordLike).map((s) => s.index);
  const from = starts[Math.max(0, starts.length - count)] ?? 0;
  return { text: unit.text.slice(from), words: Math.min(count, starts.length), before: ' ' };
}

function joined(units: Unit[]): string {
  return units.map((unit, i) => (i === 0 ? '' : unit.before) + unit.text).join('');
}
