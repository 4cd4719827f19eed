import { useState } from 'preact/hooks';
import { dashboard, type DashboardAnswer } from '../../api/client';
import { t } from '../../i18n/i18n';
import { can, useSession } from '../../session';
import { ErrorNote, TextField, fieldErrors, useAsync, useSubmit } from '../../ui';

type MessageRates = DashboardAnswer<'/api/dashboard/reports/rates'>;

/** Meta's pricing categories for business-initiated and service messages. */
const CATEGORIES = ['marketing', 'utility', 'authentication', 'service'] as const;

const rateLabel = (category: (typeof CATEGORIES)[number]) =>
  t('reports:rates.rate', { category: t(`reports:rates.categories.${category}`) });

/** The workspace's price per billable message by category; owners change it, members read it. */
export function MessageRatesForm({ onSaved }: { onSaved: () => void }) {
  const saved = useAsync(() => dashboard.get('/api/dashboard/reports/rates'), []);
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
    Object.fromEntries(CATEGORIES.map((id) => [id, saved.rates[id] === undefined ? '' : String(saved.rates[id])])),
  );
  const [done, setDone] = useState(false);
  const save = useSubmit(async () => {
    setDone(false);
    const entered = Object.entries(rates).filter(([, value]) => value.trim() !== '');
    await dashboard.put('/api/dashboard/reports/rates', {
      body: {
        currency: currency.trim().toUpperCase(),
        rates: Object.fromEntries(entered.map(([id, value]) => [id, Number(value)])),
      },
    });
    setDone(true);
    onSaved();
  });
  const labels = {
    currency: t('reports:rates.currency'),
    ...Object.fromEntries(CATEGORIES.map((id) => [`rates/${id}`, rateLabel(id)])),
  };
  const errors = fieldErrors(save.error, labels);
  return (
    <form class="report-rates" aria-label={t('reports:rates.form')} onSubmit={save.onSubmit}>
      <h3>{t('reports:rates.form')}</h3>
      {!owner && <p class="hint">{t('reports:rates.askAnAdmin', { role: user.role })}</p>}
      <fieldset class="plain report-rates-fields" disabled={!owner}>
        <legend class="visually-hidden">{t('reports:rates.fields')}</legend>
        <TextField
          label={t('reports:rates.currency')}
          value={currency}
          onValue={setCurrency}
          maxLength={3}
          hint={t('reports:rates.currencyHint')}
          error={errors.field('currency')}
        />
        {CATEGORIES.map((id) => (
          <TextField
            key={id}
            label={rateLabel(id)}
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
          {t('reports:rates.save')}
        </button>
      )}
      {done && <p role="status">{t('reports:rates.saved')}</p>}
    </form>
  );
}
