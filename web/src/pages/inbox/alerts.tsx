import { useState } from 'preact/hooks';
import { navigate } from '../../router';
import { useLiveEvents } from './events';
import { t } from '../../i18n/i18n';

/** The user's choices, per browser: alerts are opt-in. */
const NOTIFY_KEY = 'parley.inbox.notify';
const SOUND_KEY = 'parley.inbox.sound';
const chosen = (key: string) => localStorage.getItem(key) === 'on';
const choose = (key: string, on: boolean) => (on ? localStorage.setItem(key, 'on') : localStorage.removeItem(key));

/** A short two-tone chime made in the page (no sound file to fetch). */
function chime(): void {
  const audio = new AudioContext();
  const gain = audio.createGain();
  gain.gain.value = 0.08;
  gain.connect(audio.destination);
  [880, 660].forEach((frequency, i) => {
    const tone = audio.createOscillator();
    tone.frequency.value = frequency;
    tone.connect(gain);
    tone.start(audio.currentTime + i * 0.12);
    tone.stop(audio.currentTime + i * 0.12 + 0.1);
  });
  setTimeout(() => void audio.close(), 500);
}

/**
 * Tells the user of a customer's new message with a browser notification and a sound, when they
 * turned them on and are not already looking at that conversation.
 */
export function useInboxAlerts(): void {
  useLiveEvents((event) => {
    if (event.type !== 'message' || event.direction !== 'inbound') return;
    const looking = !document.hidden && location.pathname === `/inbox/${event.contact_id}`;
    if (looking) return;
    if (chosen(SOUND_KEY)) chime();
    desktopNotice(t('inbox:alerts.newMessage'), t('inbox:alerts.newMessageBody'), event.contact_id);
  });
}

/**
 * Shows a desktop notification that opens the conversation when clicked, if the user turned
 * notifications on here and the browser allows them. `tag`: a later notice with the same tag replaces it.
 */
export function desktopNotice(title: string, body: string, contactId: string, tag = contactId): void {
  if (!chosen(NOTIFY_KEY) || !('Notification' in window) || Notification.permission !== 'granted') return;
  const notification = new Notification(title, { body, tag });
  notification.onclick = () => {
    window.focus();
    navigate(`/inbox/${contactId}`);
    notification.close();
  };
}

/** The inbox's opt-in switches for notifications and sound. */
export function AlertSettings() {
  const [notify, setNotify] = useState(() => chosen(NOTIFY_KEY));
  const [sound, setSound] = useState(() => chosen(SOUND_KEY));
  const [refused, setRefused] = useState(false);
  const supported = 'Notification' in window;
  const toggleNotify = async (on: boolean) => {
    const allowed = !on || (await Notification.requestPermission()) === 'granted';
    setRefused(!allowed);
    choose(NOTIFY_KEY, on && allowed);
    setNotify(on && allowed);
  };
  return (
    <fieldset class="alert-settings">
      <legend class="visually-hidden">{t('inbox:alerts.legend')}</legend>
      {supported && (
        <label>
          <input type="checkbox" checked={notify} onChange={(e) => void toggleNotify(e.currentTarget.checked)} />{' '}
          {t('inbox:alerts.notifications')}
        </label>
      )}
      <label>
        <input
          type="checkbox"
          checked={sound}
          onChange={(e) => {
            choose(SOUND_KEY, e.currentTarget.checked);
            setSound(e.currentTarget.checked);
          }}
        />{' '}
        {t('inbox:alerts.sound')}
      </label>
      {refused && <span class="warning">{t('inbox:alerts.blocked')}</span>}
    </fieldset>
  );
}
