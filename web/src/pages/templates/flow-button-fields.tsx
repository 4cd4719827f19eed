import { action } from '../../api/client';
import { formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { TextField, useAsync } from '../../ui';
import type { ButtonDraft } from './translation-fields';

/**
 * A FLOW button's own fields (Meta's "Sending a Flow"): the published Flow it opens, and how — on a
 * screen (`navigate`) or as the Flow's data endpoint answers (`data_exchange`).
 */
export function FlowButtonFields(props: {
  id: string;
  index: number;
  button: ButtonDraft;
  onChange: (change: Partial<ButtonDraft>) => void;
  fieldMessage: (field: string) => string | undefined;
}) {
  const { id, index, button, onChange, fieldMessage } = props;
  const flows = useAsync(() => action('list-whatsapp-flows', { status: 'PUBLISHED' }), []);
  const number = formatNumber(index + 1);
  const flowError = fieldMessage(`buttons.${index}.flow_id`);
  return (
    <>
      <div class="field">
        <label for={`${id}-button-${index}-flow`}>{t('templates:translation.buttonFlow', { number })}</label>
        <select
          id={`${id}-button-${index}-flow`}
          value={button.flow_id}
          aria-invalid={flowError ? true : undefined}
          aria-describedby={flowError ? `${id}-button-${index}-flow-error` : undefined}
          onChange={(e) => onChange({ flow_id: e.currentTarget.value })}
        >
          <option value="">{t('templates:translation.chooseFlow')}</option>
          {(flows.data ?? []).map((flow) => (
            <option key={flow.id} value={flow.meta_flow_id}>
              {flow.name}
            </option>
          ))}
        </select>
        {flowError && (
          <small id={`${id}-button-${index}-flow-error`} class="error">
            {flowError}
          </small>
        )}
      </div>
      <div class="field">
        <label for={`${id}-button-${index}-flow-action`}>
          {t('templates:translation.buttonFlowAction', { number })}
        </label>
        <select
          id={`${id}-button-${index}-flow-action`}
          value={button.flow_action}
          onChange={(e) =>
            onChange({ flow_action: e.currentTarget.value === 'data_exchange' ? 'data_exchange' : 'navigate' })
          }
        >
          <option value="navigate">{t('templates:translation.flowActions.navigate')}</option>
          <option value="data_exchange">{t('templates:translation.flowActions.data_exchange')}</option>
        </select>
      </div>
      {button.flow_action === 'navigate' && (
        <TextField
          label={t('templates:translation.buttonFlowScreen', { number })}
          value={button.navigate_screen}
          onValue={(navigate_screen) => onChange({ navigate_screen })}
          error={fieldMessage(`buttons.${index}.navigate_screen`)}
        />
      )}
    </>
  );
}
