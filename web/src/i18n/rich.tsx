import { Fragment, type ComponentChildren } from 'preact';

/** What a tag becomes when `parts` does not say: emphasis, code, keys, and words only screen readers hear. */
const ELEMENTS: Record<string, (words: string) => ComponentChildren> = {
  b: (words) => <strong>{words}</strong>,
  strong: (words) => <strong>{words}</strong>,
  code: (words) => <code>{words}</code>,
  kbd: (words) => <kbd>{words}</kbd>,
  // Saying what a short button or field acts on ("Remove" rule 2).
  hidden: (words) => <span class="visually-hidden">{words}</span>,
};

/**
 * A translated sentence with marked-up words: the catalog marks them (`send an approved
 * <link>template</link> instead`) and the tag says what they become — <b>, <strong>, <code>, <kbd> and
 * <hidden> by themselves, any other tag the element `parts` gives for it (`parts.link = (words) =>
 * <Link …>{words}</Link>`). Translators move the tags with the words; the code keeps the element. A tag
 * neither knows is left as written.
 */
export function Rich({
  text,
  parts = {},
}: {
  text: string;
  parts?: Record<string, (words: string) => ComponentChildren>;
}) {
  const elements = { ...ELEMENTS, ...parts };
  const pieces: ComponentChildren[] = [];
  let last = 0;
  for (const found of text.matchAll(/<(\w+)>(.*?)<\/\1>/gs)) {
    const make = elements[found[1]!];
    if (!make) continue;
    pieces.push(text.slice(last, found.index), <Fragment key={found.index}>{make(found[2]!)}</Fragment>);
    last = found.index + found[0].length;
  }
  pieces.push(text.slice(last));
  return <>{pieces}</>;
}
