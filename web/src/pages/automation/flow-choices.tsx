import { t } from '../../i18n/i18n';
import { idFromTitle, type Choice } from './flow-model';
import { PlainField } from './flow-nodes';

/**
 * Choices (reply buttons, list rows) as rows of titles; each one's id is made from its title, so a
 * branch can test it and nobody types it. `renamed` tells the card which id became which.
 */
export function ChoiceRows(props: {
  choices: Choice[];
  /** "Button {{n}}" or "Row {{n}}": each row's label, by its number. */
  rowLabel: (n: number) => string;
  removeLabel: (n: number) => string;
  fallbackId: (n: number) => string;
  max: number;
  maxTitle: number;
  addLabel: string;
  newTitle: (n: number) => string;
  /** Ids in use elsewhere in the message (other sections' rows). */
  otherIds?: Set<string>;
  withDescription?: boolean;
  invalid: (i: number) => boolean;
  onChange: (choices: Choice[], renamed?: [string, string]) => void;
}) {
  const { choices } = props;
  const idFor = (title: string, i: number) => {
    const taken = new Set([...(props.otherIds ?? []), ...choices.filter((_, j) => j !== i).map((c) => c.id)]);
    return idFromTitle(title.toLowerCase(), taken, props.fallbackId(i + 1), 200);
  };
  const retitle = (i: number, title: string) => {
    const id = idFor(title, i);
    const old = choices[i]!;
    props.onChange(
      choices.map((c, j) => (j === i ? { ...c, id, title } : c)),
      [old.id, id],
    );
  };
  return (
    <ol class="choice-rows">
      {choices.map((choice, i) => (
        <li key={i}>
          <PlainField
            label={props.rowLabel(i + 1)}
            value={choice.title}
            maxLength={props.maxTitle}
            invalid={props.invalid(i)}
            onValue={(title) => retitle(i, title)}
          />
          {props.withDescription && (
            <PlainField
              label={t('automation:builder.rowDescription', { n: i + 1 })}
              value={(choice as Choice & { description?: string }).description ?? ''}
              maxLength={72}
              onValue={(description) =>
                props.onChange(choices.map((c, j) => (j === i ? { ...c, description: description || undefined } : c)))
              }
            />
          )}
          <button
            type="button"
            class="link"
            disabled={choices.length === 1}
            onClick={() => props.onChange(choices.filter((_, j) => j !== i))}
          >
            {props.removeLabel(i + 1)}
          </button>
        </li>
      ))}
      {choices.length < props.max && (
        <li>
          <button
            type="button"
            onClick={() => {
              const title = props.newTitle(choices.length + 1);
              props.onChange([...choices, { id: idFor(title, choices.length), title }]);
            }}
          >
            {props.addLabel}
          </button>
        </li>
      )}
    </ol>
  );
}
