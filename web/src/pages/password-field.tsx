import { TextField } from '../ui';

/** Mirrors the server's password rule (src/workspaces/password-rule.ts), which has the last word. */
const PASSWORD_RULE = 'At least 12 characters, not a common password: a few unrelated words work well.';

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
  return (
    <TextField
      type="password"
      autoComplete="new-password"
      required
      hint={outcome ? `${PASSWORD_RULE} ${outcome}` : PASSWORD_RULE}
      {...field}
    />
  );
}
