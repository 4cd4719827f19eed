import { useState } from 'preact/hooks';
import { action } from '../../api/client';
import { t } from '../../i18n/i18n';
import { navigate } from '../../router';
import { ErrorNote, fieldErrors, Page, TextField, useAsync, useSubmit } from '../../ui';
import { FLOW_CATEGORIES, flowCategoryLabel } from './flow-words';

type Category = (typeof FLOW_CATEGORIES)[number];

/** New WhatsApp Flow: its name, what it is for, and optionally a copy of another's screens. */
export function WhatsappFlowNew() {
  const flows = useAsync(() => action('list-whatsapp-flows', {}), []);
  const [name, setName] = useState('');
  const [categories, setCategories] = useState<Category[]>([]);
  const [cloneId, setCloneId] = useState('');
  const create = useSubmit(async () => {
    const flow = await action('create-whatsapp-flow', {
      name,
      categories,
      ...(cloneId && { clone_whatsapp_flow_id: cloneId }),
    });
    navigate(`/whatsapp-flows/${flow.id}`);
  });
  const labels = {
    name: t('whatsapp-flows:new.name'),
    categories: t('whatsapp-flows:new.categories'),
    clone_whatsapp_flow_id: t('whatsapp-flows:new.cloneFrom'),
  };
  const errors = fieldErrors(create.error, labels);
  const toggle = (category: Category) => {
    setCategories(categories.includes(category) ? categories.filter((c) => c !== category) : [...categories, category]);
    create.edited('categories');
  };
  const copies = (flows.data ?? []).filter((flow) => flow.flow_json !== null);
  return (
    <Page title={t('whatsapp-flows:new.title')}>
      <form onSubmit={create.onSubmit} aria-label={t('whatsapp-flows:new.title')} noValidate>
        <TextField
          label={labels.name}
          value={name}
          hint={t('whatsapp-flows:new.nameHint')}
          maxLength={200}
          {...create.bind('name', setName)}
          error={errors.field('name')}
        />
        <fieldset
          class="field plain"
          aria-describedby={errors.field('categories') ? 'flow-categories-error' : undefined}
        >
          <legend>{labels.categories}</legend>
          {FLOW_CATEGORIES.map((category) => (
            <label key={category} class="checkbox">
              <input type="checkbox" checked={categories.includes(category)} onChange={() => toggle(category)} />
              {flowCategoryLabel(category)}
            </label>
          ))}
          {errors.field('categories') && (
            <small id="flow-categories-error" class="error">
              {errors.field('categories')}
            </small>
          )}
        </fieldset>
        <div class="field">
          <label for="flow-clone">{labels.clone_whatsapp_flow_id}</label>
          <select id="flow-clone" value={cloneId} onChange={(e) => setCloneId(e.currentTarget.value)}>
            <option value="">{t('whatsapp-flows:new.blank')}</option>
            {copies.map((flow) => (
              <option key={flow.id} value={flow.id}>
                {flow.name}
              </option>
            ))}
          </select>
        </div>
        <ErrorNote error={errors.note} labels={labels} />
        <div>
          <button type="submit" class="primary" disabled={create.busy}>
            {create.busy ? t('whatsapp-flows:new.creating') : t('whatsapp-flows:new.create')}
          </button>
        </div>
      </form>
    </Page>
  );
}
