import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { t } from '../../i18n/i18n';

type Json = Record<string, unknown>;
const record = (value: unknown): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const records = (value: unknown): Json[] => (Array.isArray(value) ? value.map(record) : []);
const text = (value: unknown): string =>
  typeof value === 'string' ? value : Array.isArray(value) ? value.filter((v) => typeof v === 'string').join('\n') : '';

/** A Flow JSON document's screens, or null when the text is not JSON. */
export function screensOf(flowJson: string): Json[] | null {
  try {
    return records(record(JSON.parse(flowJson)).screens);
  } catch {
    return null;
  }
}

/** The screens of a Flow JSON document as WhatsApp draws them: a title bar, the components, the footer button. */
export function FlowPreview({ flowJson }: { flowJson: string }) {
  const screens = screensOf(flowJson);
  if (screens === null) return <p class="muted">{t('whatsapp-flows:preview.notJson')}</p>;
  if (screens.length === 0) return <p class="muted">{t('whatsapp-flows:preview.noScreens')}</p>;
  return (
    <ol class="flow-screens">
      {screens.map((screen, i) => (
        <li key={i}>
          <Screen screen={screen} />
        </li>
      ))}
    </ol>
  );
}

function Screen({ screen }: { screen: Json }) {
  const id = text(screen.id);
  return (
    <section class="flow-screen" aria-label={t('whatsapp-flows:preview.screen', { id })} data-screen={id}>
      <header class="flow-screen-title">
        <strong>{text(screen.title) || id}</strong>
      </header>
      <div class="flow-screen-body">
        <Components items={records(record(screen.layout).children)} data={record(screen.data)} />
      </div>
    </section>
  );
}

function Components({ items, data }: { items: Json[]; data: Json }) {
  return (
    <>
      {items.map((item, i) => (
        <Component key={i} item={item} data={data} />
      ))}
    </>
  );
}

/**
 * A list a component offers: its `data-source` as written, or the screen data's example when it names
 * one (`${data.slots}` → `data.slots.__example__`).
 */
function options(source: unknown, data: Json): { id: string; title: string }[] {
  const named = typeof source === 'string' ? /^\$\{data\.(\w+)\}$/.exec(source)?.[1] : undefined;
  const list = named ? record(data[named]).__example__ : source;
  return records(list).map((option) => ({ id: text(option.id), title: text(option.title) }));
}

/** One component, drawn as WhatsApp does; one this preview does not know is named, not guessed. */
function Component({ item, data }: { item: Json; data: Json }) {
  const type = text(item.type);
  switch (type) {
    case 'TextHeading':
      return <p class="flow-heading">{text(item.text)}</p>;
    case 'TextSubheading':
      return <p class="flow-subheading">{text(item.text)}</p>;
    case 'TextBody':
    case 'RichText':
      return <p class="flow-body">{text(item.text)}</p>;
    case 'TextCaption':
      return <p class="flow-caption muted">{text(item.text)}</p>;
    case 'TextInput':
    case 'TextArea':
    case 'DatePicker':
    case 'CalendarPicker':
      return <Input item={item} multiline={type === 'TextArea'} date={type.endsWith('Picker')} />;
    case 'Dropdown':
      return <Dropdown item={item} choices={options(item['data-source'], data)} />;
    case 'RadioButtonsGroup':
    case 'CheckboxGroup':
    case 'ChipsSelector':
      return <Choices item={item} choices={options(item['data-source'], data)} many={type !== 'RadioButtonsGroup'} />;
    case 'OptIn':
      return <Choices item={{ label: '' }} choices={[{ id: text(item.name), title: text(item.label) }]} many />;
    case 'EmbeddedLink':
      return <p class="flow-link">{text(item.text)}</p>;
    case 'Image':
      return <p class="flow-image">{t('whatsapp-flows:preview.image')}</p>;
    case 'PhotoPicker':
    case 'DocumentPicker':
      return (
        <Labelled label={text(item.label)}>
          {t(`whatsapp-flows:preview.${type === 'PhotoPicker' ? 'photo' : 'document'}`)}
        </Labelled>
      );
    case 'Form':
      return <Components items={records(item.children)} data={data} />;
    case 'Footer':
      return (
        <p class="flow-footer">
          <span class="flow-footer-button">{text(item.label)}</span>
        </p>
      );
    default:
      return <p class="muted">{t('whatsapp-flows:preview.unknown', { type: type || '?' })}</p>;
  }
}

function Labelled({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="flow-field">
      <span class="flow-label">{label}</span>
      <span class="muted">{children}</span>
    </div>
  );
}

// The preview's controls are drawings: disabled, yet labelled so they read as the form they show.
function Input({ item, multiline, date }: { item: Json; multiline: boolean; date: boolean }) {
  const id = useId();
  const label = `${text(item.label)}${item.required === true ? ' *' : ''}`;
  return (
    <div class="flow-field">
      <label for={id}>{label}</label>
      {multiline ? (
        <textarea id={id} disabled rows={2} />
      ) : (
        <input id={id} disabled type={date ? 'date' : 'text'} placeholder={text(item['helper-text'])} />
      )}
    </div>
  );
}

function Dropdown({ item, choices }: { item: Json; choices: { id: string; title: string }[] }) {
  const id = useId();
  return (
    <div class="flow-field">
      <label for={id}>{text(item.label)}</label>
      <select id={id} disabled>
        <option>{t('whatsapp-flows:preview.choose')}</option>
        {choices.map((choice) => (
          <option key={choice.id}>{choice.title}</option>
        ))}
      </select>
    </div>
  );
}

function Choices({ item, choices, many }: { item: Json; choices: { id: string; title: string }[]; many: boolean }) {
  const label = text(item.label);
  const body = choices.map((choice) => (
    <label key={choice.id} class="checkbox">
      <input type={many ? 'checkbox' : 'radio'} disabled />
      {choice.title}
    </label>
  ));
  if (!label) return <div class="flow-field">{body}</div>;
  return (
    <fieldset class="flow-field plain">
      <legend>{label}</legend>
      {body}
    </fieldset>
  );
}
