import { useState } from 'preact/hooks';
import { action } from './api/client';
import { ErrorNote, useAsync } from './ui';
import { t } from './i18n/i18n';

/**
 * The header's switch: available for conversations, or away. Away, automatic assignment passes the
 * person over and their open conversations go back to the queue (the server says so; this only asks).
 */
export function AvailabilityToggle() {
  const current = useAsync(() => action('get-availability', {}), []);
  const [shown, setShown] = useState<boolean | null>(null);
  const [error, setError] = useState<unknown>(null);
  const available = shown ?? current.data?.available;
  if (available === undefined) return null;
  const change = async (next: boolean) => {
    setError(null);
    setShown(next);
    try {
      setShown((await action('set-availability', { available: next })).available);
    } catch (e) {
      setShown(!next);
      setError(e);
    }
  };
  return (
    <span class="availability">
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={available}
          onChange={(e) => void change(e.currentTarget.checked)}
        />{' '}
        {t('shell:availability.available')}
      </label>
      <ErrorNote error={error} />
    </span>
  );
}
