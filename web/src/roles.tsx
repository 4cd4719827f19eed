import { can, useSession, type SessionUser } from './session';
import { Page } from './ui';
import { t } from './i18n/i18n';

/** A workspace role (src/access/roles.ts holds what each grants). */
export type Role = SessionUser['role'];

/** The roles, in the order Settings → Team offers them. */
const ROLE_ORDER: readonly Role[] = ['owner', 'admin', 'member', 'agent', 'marketer'];

/** Each role's name and one line on what it is for, in the person's language (looked up when shown). */
export const roles = (): { role: Role; label: string; description: string }[] =>
  ROLE_ORDER.map((role) => ({
    role,
    label: t(`shell:roles.${role}.name`),
    description: t(`shell:roles.${role}.description`),
  }));

/** A role's display name ("Member"). */
export const roleLabel = (role: Role): string => t(`shell:roles.${role}.name`);

/** A role's name inside a sentence ("invited as member"), as the language writes it there. */
export const roleInSentence = (role: Role): string => t(`shell:roles.${role}.inSentence`);

/** The roles the user may give someone (only an owner makes owners). */
export const grantableRoles = (user: SessionUser) =>
  roles().filter((entry) => entry.role !== 'owner' || can(user, 'manage_owners'));

/** Whether the user may change or remove someone with this role (only an owner touches owners). */
export const mayManage = (user: SessionUser, role: Role): boolean =>
  can(user, 'manage_team') && (role !== 'owner' || can(user, 'manage_owners'));

/**
 * The sentence a page shows someone whose role lacks what it changes; `doing` is what they cannot do,
 * already in the person's language, as a verb phrase ("change the channel", "cambiar el canal").
 */
export const askAnAdmin = (user: SessionUser, doing: string): string =>
  t('shell:roles.askAnAdmin', { role: roleInSentence(user.role), doing });

/** The page of something the user's role does not include (`what`: translated), opened from a link or typed in. */
export function NotInYourRole({ what }: { what: string }) {
  const { user } = useSession();
  return (
    <Page title={t('shell:roles.notInYourRole')}>
      <p>{t('shell:roles.doesNotInclude', { role: roleInSentence(user.role), what })}</p>
    </Page>
  );
}
