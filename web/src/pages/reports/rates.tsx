import { useState } from 'preact/hooks';
import type { MessageRates } from '../../../../src/reports/report.types';
import { dashboard } from '../../api';
import { can, useSession } from '../../session';
import { askAnAdmin } from '../../roles';
import { ErrorNote, TextField, fieldErrors, useAsync, useSubmit } from '../../ui';

/** Meta's pricing categories for business-initiated and service messages. */
const CATEGORIES = [
  { id: 'marketing', label: 'Marketing' },
  { id: 'utility', label: 'Utility' },
  { id: 'authentication', label: 'Authentication' },
  { id: 'service', label: 'Service' },
];

/** The workspace's price per billable message by category; owners change it, members read it. */
export function MessageRatesForm({ onSaved }: { onSaved: () => void }) {
  const saved = useAsync(() => dashboard.get<MessageRates>('reports/rates'), []);
  return (
    <>
      <ErrorNote error={saved.error} />
      {saved.data && <RatesForm saved={saved.data} onSaved={onSaved} />}
    </>
  );
}

function RatesForm({ saved, onSaved }: { saved: MessageRates; onSaved: () => void }) {
  const { user } = useSession();
  const owner = can(user, 'manage_workspace');
  const [currency, setCurrency] = useState(saved.currency);
  const [rates, setRates] = useState(
    Object.fromEntries(CATEGORIES.map(({ id }) => [id, saved.rates[id] === undefined ? '' : String(saved.rates[id])])),
  );
  const [done, setDone] = useState(false);
  const save = useSubmit(async () => {
    setDone(false);
    const entered = Object.entries(rates).filter(([, value]) => value.trim() !== '');
    await dashboard.put('reports/rates', {
      currency: currency.trim().toUpperCase(),
      rates: Object.fromEntries(entered.map(([id, value]) => [id, Number(value)])),
    });
    setDone(true);
    onSaved();
  });
  const labels = {
    currency: 'Currency',
    ...Object.fromEntries(CATEGORIES.map(({ id, label }) => [`rates/${id}`, `${label} rate`])),
  };
  const errors = fieldErrors(save.error, labels);
  return (
    <form class="report-rates" aria-label="Rates per billable message" onSubmit={save.onSubmit}>
      <h3>Rates per billable message</h3>
      {!owner && <p class="hint">{askAnAdmin(user, 'change the rates')}</p>}
      <fieldset class="plain report-rates-fields" disabled={!owner}>
        <legend class="visually-hidden">Rates</legend>
        <TextField
          label="Currency"
          value={currency}
          onValue={setCurrency}
          maxLength={3}
          hint="Three letters, such as USD or EUR"
          error={errors.field('currency')}
        />
        {CATEGORIES.map(({ id, label }) => (
          <TextField
            key={id}
            label={`${label} rate`}
            type="number"
            min="0"
            step="any"
            inputMode="decimal"
            value={rates[id] ?? ''}
            onValue={(value) => setRates({ ...rates, [id]: value })}
            error={errors.field(`rates/${id}`)}
          />
        ))}
      </fieldset>
      <ErrorNote error={errors.note} />
      {owner && (
        <button type="submit" class="primary" disabled={save.busy}>
          Save rates
        </button>
      )}
      {done && <p role="status">Rates saved.</p>}
    </form>
  );
}
