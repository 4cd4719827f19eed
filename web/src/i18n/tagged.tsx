import { Fragment, type ComponentChildren } from 'preact';

/**
 * A translated sentence with elements inside it: the catalog marks the words (`send an approved
 * <link>template</link> instead`) and `draw` says what each tag becomes. Translators move the words
 * where their language needs them; the code keeps the element. Only the tags `draw` names are read, so
 * a name interpolated into the sentence (a team called "<b>") shows as written.
 */
export function Tagged(props: { text: string; draw: Record<string, (words: string) => ComponentChildren> }) {
  const parts: ComponentChildren[] = [];
  let last = 0;
  const tags = new RegExp(`<(${Object.keys(props.draw).join('|')})>(.*?)</\\1>`, 'gs');
  for (const match of props.text.matchAll(tags)) {
    parts.push(props.text.slice(last, match.index));
    parts.push(props.draw[match[1]!]!(match[2]!));
    last = match.index + match[0].length;
  }
  parts.push(props.text.slice(last));
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>{part}</Fragment>
      ))}
    </>
  );
}

/** `<hidden>…</hidden>`: words only screen readers hear, saying what a short button or field acts on. */
export const HIDDEN = { hidden: (words: string) => <span class="visually-hidden">{words}</span> };
