import type { Route } from '../../router';
import { GroupPage, GroupsPage } from './groups';
import { Inbox } from './inbox';
import { InboxShortcuts } from './shortcuts';
import { ThreadPage } from './thread';

/** The inbox's pages: the conversation list, one conversation, and WhatsApp groups. */
export const InboxRoutes: Route[] = [
  { pattern: /^\/inbox$/, render: (_, url) => <Inbox url={url} /> },
  // Before a conversation's path, which would take `groups` for a contact id.
  { pattern: /^\/inbox\/groups$/, render: () => <GroupsPage /> },
  { pattern: /^\/inbox\/groups\/([^/]+)$/, render: ([id]) => <GroupPage key={id} id={id!} /> },
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
