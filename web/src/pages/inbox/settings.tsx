import { useState } from 'preact/hooks';
import { dashboard } from '../../api';
import { ErrorNote, useAsync } from '../../ui';

interface InboxSettings {
  typing_indicator: boolean;
}

/**
 * The inbox's workspace setting: whether opening a conversation also shows the customer a typing
 * indicator with the read receipt (WhatsApp shows it until the reply, or for 25 seconds).
 */
export function InboxSettingsToggle() {
  const settings = useAsync(() => dashboard.get<InboxSettings>('inbox/settings'), []);
  // The box shows the choice at once; a refused save puts it back and says why.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [error, setError] = useState<unknown>(null);
  if (!settings.data) return <ErrorNote error={settings.error} />;
  const toggle = async (on: boolean) => {
    setChosen(on);
    setError(null);
    try {
      await dashboard.put('inbox/settings', { typing_indicator: on });
    } catch (e) {
      setChosen(null);
      setError(e);
    }
  };
  return (
    <div class="inbox-settings">
      <label>
        <input
          type="checkbox"
          checked={chosen ?? settings.data.typing_indicator}
          onChange={(e) => void toggle(e.currentTarget.checked)}
        />{' '}
        Show customers a typing indicator when a conversation is opened
      </label>
      <ErrorNote error={error} />
    </div>
  );
}
