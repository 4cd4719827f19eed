import { TextField } from '../ui';
import { t } from '../i18n/i18n';

/** Where someone chooses a password, with the rule as its hint; `outcome` says what saving it does. */
export function NewPasswordField(props: {
  label: string;
  value: string;
  onValue: (value: string) => void;
  error: string | undefined;
  outcome?: string;
  minLength?: number;
}) {
  const { outcome, ...field } = props;
  // Mirrors the server's password rule (src/workspaces/password-rule.ts), which has the last word.
  const rule = t('account:passwordRule');
  return (
    <TextField
      type="password"
      autoComplete="new-password"
      required
      hint={outcome ? `${rule} ${outcome}` : rule}
      {...field}
    />
  );
}
