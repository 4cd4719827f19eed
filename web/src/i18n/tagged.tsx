import { Fragment, type ComponentChildren } from 'preact';

/**
 * A translated sentence with elements inside it: the catalog marks the words (`send an approved
 * <link>template</link> instead`) and `draw` says what each tag becomes. Translators move the words
 * where their language needs them; the code keeps the element. A tag `draw` does not know shows as text.
 */
export function Tagged(props: { text: string; draw: Record<string, (words: string) => ComponentChildren> }) {
  const parts: ComponentChildren[] = [];
  let last = 0;
  for (const match of props.text.matchAll(/<(\w+)>(.*?)<\/\1>/g)) {
    parts.push(props.text.slice(last, match.index));
    const draw = props.draw[match[1]!];
    parts.push(draw ? draw(match[2]!) : match[2]);
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
