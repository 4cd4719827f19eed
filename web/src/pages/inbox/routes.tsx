import type { Route } from '../../router';
import { Inbox } from './inbox';
import { InboxShortcuts } from './shortcuts';
import { ThreadPage } from './thread';

/** The inbox's pages: the conversation list and one conversation. */
export const InboxRoutes: Route[] = [
  { pattern: /^\/inbox$/, render: (_, url) => <Inbox url={url} /> },
  {
    pattern: /^\/inbox\/([^/]+)$/,
    render: ([id]) => (
      <>
        <ThreadPage key={id} contactId={id!} />
        <InboxShortcuts contactId={id} />
      </>
    ),
  },
];
