import { useState } from 'preact/hooks';
import { dashboard, type DashboardAnswer } from '../../api/client';
import { formatDay } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import { can, useSession } from '../../session';
import { ErrorNote, TextField, fieldErrors, useAsync, useSubmit } from '../../ui';

type RateCard = DashboardAnswer<'/api/dashboard/reports/rate-cards'>[number];

/**
 * The rate cards the workspace imported from Meta's CSV, each pricing by market from its day until the
 * next one's; owners import and delete them, members read them.
 */
export function RateCards() {
  const cards = useAsync(() => dashboard.get('/api/dashboard/reports/rate-cards'), []);
  const { user } = useSession();
  const owner = can(user, 'manage_workspace');
  const [removeError, setRemoveError] = useState<unknown>(null);
  const remove = (card: RateCard) =>
    dashboard
      .delete('/api/dashboard/reports/rate-cards/{effective_from}', { path: { effective_from: card.effective_from } })
      .then(cards.reload, setRemoveError);
  return (
    <div class="report-rate-cards">
      <h3>{t('reports:rateCards.title')}</h3>
      <p class="hint">{t('reports:rateCards.hint')}</p>
      <ErrorNote error={cards.error ?? removeError} />
      {cards.data && cards.data.length === 0 && <p class="muted">{t('reports:rateCards.none')}</p>}
      {cards.data && cards.data.length > 0 && (
        <table data-testid="rate-cards">
          <caption class="visually-hidden">{t('reports:rateCards.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('reports:rateCards.effectiveFrom')}</th>
              <th scope="col">{t('reports:rateCards.currency')}</th>
              <th scope="col">{t('reports:rateCards.markets')}</th>
              <th scope="col">{t('reports:rateCards.source')}</th>
              {owner && (
                <th scope="col" class="visually-hidden">
                  {t('reports:rateCards.delete')}
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {cards.data.map((card) => (
              <tr key={card.effective_from}>
                <td>{formatDay(card.effective_from)}</td>
                <td>{card.currency}</td>
                <td>{card.markets}</td>
                <td>{card.source}</td>
                {owner && (
                  <td>
                    <button type="button" onClick={() => void remove(card)}>
                      {t('reports:rateCards.delete')}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {owner && <ImportForm onImported={cards.reload} />}
    </div>
  );
}

function ImportForm({ onImported }: { onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [effectiveFrom, setEffectiveFrom] = useState('');
  const [currency, setCurrency] = useState('');
  const [done, setDone] = useState(false);
  const submit = useSubmit(async () => {
    setDone(false);
    await dashboard.post('/api/dashboard/reports/rate-cards', {
      body: {
        csv: file ? await file.text() : '',
        effective_from: effectiveFrom,
        ...(currency.trim() && { currency: currency.trim().toUpperCase() }),
        ...(file && { source: file.name }),
      },
    });
    setDone(true);
    onImported();
  });
  const labels = {
    file: t('reports:rateCards.file'),
    csv: t('reports:rateCards.file'),
    effective_from: t('reports:rateCards.effectiveFrom'),
    currency: t('reports:rateCards.currency'),
  };
  const errors = fieldErrors(submit.error, labels);
  return (
    <form aria-label={t('reports:rateCards.import')} onSubmit={submit.onSubmit}>
      <div class="field">
        <label for="rate-card-file">{t('reports:rateCards.file')}</label>
        <input
          id="rate-card-file"
          type="file"
          accept=".csv,text/csv"
          aria-describedby="rate-card-file-note"
          aria-invalid={errors.field('file') || errors.field('csv') ? true : undefined}
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <small id="rate-card-file-note" class={errors.field('file') || errors.field('csv') ? 'error' : 'hint'}>
          {errors.field('file') ?? errors.field('csv') ?? t('reports:rateCards.fileHint')}
        </small>
      </div>
      <TextField
        label={t('reports:rateCards.effectiveFrom')}
        type="date"
        value={effectiveFrom}
        onValue={setEffectiveFrom}
        required
        error={errors.field('effective_from')}
      />
      <TextField
        label={t('reports:rateCards.currency')}
        value={currency}
        onValue={setCurrency}
        maxLength={3}
        hint={t('reports:rateCards.currencyHint')}
        error={errors.field('currency')}
      />
      <ErrorNote error={errors.note} />
      <button type="submit" class="primary" disabled={submit.busy || !file}>
        {t('reports:rateCards.import')}
      </button>
      {done && <p role="status">{t('reports:rateCards.imported')}</p>}
    </form>
  );
}
