import { useId } from 'preact/hooks';
import { action, dashboard } from '../../api/client';
import { t } from '../../i18n/i18n';
import { useAsync } from '../../ui';
import { neverPublished, type Flow } from './flow-save';
import type { FlowStats } from './flow-stats';

/** "Version 3 live · draft has unpublished changes", and how many runs the live version has had. */
export function VersionLine({
  flow,
  unsaved,
  stats,
}: {
  flow: Flow | null;
  unsaved: boolean;
  stats: FlowStats | null;
}) {
  if (!flow) return null;
  const live = neverPublished(flow)
    ? t('automation:builder.status.notPublished')
    : t('automation:builder.status.live', { version: flow.version });
  const parts = [live];
  if (flow.draft) parts.push(t('automation:builder.status.draft'));
  if (unsaved) parts.push(t('automation:builder.status.unsaved'));
  if (stats && stats.runs > 0) parts.push(t('automation:builder.status.runs', { count: stats.runs }));
  return <p class="version-line">{parts.join(' · ')}</p>;
}

/**
 * Save draft (always), Publish (only when the draft has no problems and something is new: disabled with
 * the reason otherwise) and Try it (in the simulator).
 */
export function BuilderActions(props: {
  busy: boolean;
  problems: number;
  nothingNew: boolean;
  onPublish: () => void;
  onTry: () => void;
}) {
  const id = useId();
  const channel = useAsync(() => dashboard.get('/api/dashboard/channel'), []);
  const cloud = channel.data?.channel.provider === 'whatsapp-cloud';
  const blocked = props.problems > 0 ? t('automation:builder.publishBlocked', { count: props.problems }) : '';
  const publishReason = blocked || (props.nothingNew ? t('automation:builder.nothingNew') : '');
  const tryReason = blocked || (cloud ? t('automation:builder.try.needsSimulator') : '');
  return (
    <div class="form-actions builder-actions">
      <button type="submit" disabled={props.busy}>
        {t('automation:builder.saveDraft')}
      </button>
      <button
        type="button"
        class="primary"
        disabled={props.busy || publishReason !== ''}
        aria-describedby={publishReason ? `${id}-publish` : undefined}
        onClick={props.onPublish}
      >
        {t('automation:builder.publish')}
      </button>
      <button
        type="button"
        disabled={props.busy || tryReason !== ''}
        aria-describedby={tryReason ? `${id}-try` : undefined}
        onClick={props.onTry}
      >
        {t('automation:builder.try.button')}
      </button>
      {publishReason && (
        <small class="hint" id={`${id}-publish`}>
          {publishReason}
        </small>
      )}
      {tryReason && tryReason !== publishReason && (
        <small class="hint" id={`${id}-try`}>
          {tryReason}
        </small>
      )}
    </div>
  );
}

/** The live version's counts (get-flow-stats): read when the builder opens and at each publish. */
export function useLiveStats(flow: Flow | null): FlowStats | null {
  const live = flow && !neverPublished(flow) ? flow : null;
  const stats = useAsync(
    () => (live ? action('get-flow-stats', { flow_id: live.id }) : Promise.resolve(null)),
    [live?.id, live?.version],
  );
  return stats.data ?? null;
}
